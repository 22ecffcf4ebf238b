// Files an agent's or an editor's settings run without asking anyone: Claude
// Code's hooks and status line (`.claude/settings.json`: "command":
// "./scripts/fmt.sh"), MCP servers' commands (`.mcp.json`), VS Code tasks
// that run when the folder opens, a dev container's lifecycle commands. Such a
// script in the workspace is no everyday file: the hook never sees it run, so
// writing it is writing what runs later (stop 46's open item; the settings
// files themselves are guard or persistence files in paths.ts).
import { posix } from "node:path";
import { forgetWithCommand, readScript } from "./host-paths.js";

/** Settings files, relative to a workspace root (and, for Claude Code's, to the home). */
const SETTINGS = [
  ".claude/settings.json",
  ".claude/settings.local.json",
  ".mcp.json",
  ".vscode/tasks.json",
  ".vscode/mcp.json",
  ".cursor/mcp.json",
  ".devcontainer/devcontainer.json",
  ".cursor/hooks.json",
  ".devcontainer.json",
  ".gemini/settings.json",
];

/** Variables these files use for the project's root. */
const ROOT_VARIABLE = /^["']?\$\{?(?:CLAUDE_PROJECT_DIR|workspaceFolder|workspaceRoot|PWD|containerWorkspaceFolder)\}?["']?\//;

/** A word as a path: without the root variable before it and the quotes around it. */
const bare = (raw: string): string => raw.replace(ROOT_VARIABLE, "").replace(/^["']+|["']+$/g, "");

/** A word that names a file: it holds a slash, or ends in a script's extension. */
const FILE_WORD = /\/|\.(?:sh|bash|zsh|fish|py|js|mjs|cjs|ts|mts|rb|pl|php|lua|ps1|cmd|bat)$/;

let named = new Map<string, ReadonlySet<string>>();
forgetWithCommand(() => {
  if (named.size !== 0) named = new Map();
});

/** Keys whose values are commands or their arguments: hooks' and the status line's `command`, MCP servers' `command`
 * and `args`, tasks' `command`/`args`, a dev container's lifecycle commands, Claude Code's `apiKeyHelper`. */
const COMMAND_KEY = /^(command|args|program|script|apiKeyHelper|\w*Command|windows|linux|osx)$/;

/** The strings under command keys of a JSON (or JSON with comments) document; every string when it cannot be read. */
function commandStrings(text: string): string[] {
  let doc: unknown;
  try {
    doc = JSON.parse(text.replace(/^\s*\/\/.*$/gm, "").replace(/,(\s*[}\]])/g, "$1"));
  } catch {
    return [...text.matchAll(/"((?:[^"\\\n]|\\.)*)"/g)].map((m) => (m[1] as string).replace(/\\(.)/g, "$1"));
  }
  const out: string[] = [];
  const walk = (v: unknown, under: boolean): void => {
    if (typeof v === "string") {
      if (under) out.push(v);
    } else if (Array.isArray(v)) for (const x of v) walk(x, under);
    else if (v !== null && typeof v === "object") for (const [k, x] of Object.entries(v)) walk(x, under || COMMAND_KEY.test(k));
  };
  walk(doc, false);
  return out;
}

/** Every path the commands in `file` name, resolved against `root` (round 29: not a permission's `Edit(docs/x.md)`). */
function namesIn(file: string, root: string): string[] {
  const text = readScript(file);
  if (text === null) return [];
  return commandStrings(text).flatMap((value) => namedBy(value, root, 0));
}

/** Programs that take a script (or `-m MODULE`) as their first operand. */
const INTERPRETER = /^(?:python[\d.]*|pypy3?|node|nodejs|bun|deno|tsx|ts-node|ruby|perl|php|bash|sh|zsh|dash|ksh|lua[\d.]*)$/;
/** Package scripts' runners: `npm run fmt` runs package.json's `fmt` (and `prefmt`, `postfmt`). */
const PACKAGE_RUNNER = /^(?:npm|pnpm|yarn|bun)$/;
/** Package runners' options whose value is the next word. */
const RUNNER_VALUED = /^(?:--prefix|-C|--cwd|--dir|--filter|-F|-w|--workspace)$/;
/** Interpreters' options whose value is the next word (not the script): node's preloads are named on their own. */
const SCRIPT_VALUED =
  /^(?:-W|-X|-Q|-r|--require|--import|--loader|--experimental-loader|--conditions|-C|--env-file|--title|--inspect-port|-I|-e|-E)$/;
/** Node's options whose value is a module it loads first. */
const PRELOAD = /^(?:-r|--require|--import|--loader|--experimental-loader)$/;
/** Extensions a runner tries after a bare script name. */
const SCRIPT_EXTENSIONS = [".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".py", ".sh"];
/** Task runners and the files they read their tasks from. */
const TASK_FILES: Record<string, readonly string[]> = {
  make: ["Makefile", "makefile", "GNUmakefile"],
  gmake: ["Makefile", "makefile", "GNUmakefile"],
  just: ["justfile", "Justfile", ".justfile"],
  task: ["Taskfile.yml", "Taskfile.yaml"],
};

/** A path named so that what is in it runs too (`python3 tools/mcp` runs its __main__.py): marked by a trailing slash. */
const runsIn = (path: string): string => `${path.replace(/\/+$/, "")}/`;

/** The files a dotted module name (`tools.fmt`) may be: each package's `__init__.py`, the module, its directory. */
function modulePaths(name: string, at: (w: string) => string): string[] {
  const parts = name.split(".").filter((x) => x !== "");
  if (parts.length === 0) return [];
  const packages = parts.slice(0, -1).map((_, n) => at(`${parts.slice(0, n + 1).join("/")}/__init__.py`));
  return [...packages, runsIn(at(parts.join("/"))), at(`${parts.join("/")}.py`)];
}

/** Modules inline Python imports: `import a.b, c`, `from a.b import x, y`, `__import__("a.b")`, `import_module("a")`. */
function importedModules(code: string): string[] {
  const out: string[] = [];
  for (const m of code.matchAll(/\bfrom\s+([\w.]+)\s+import\s+([\w\s,()]+)/g)) {
    out.push(m[1] as string);
    for (const n of (m[2] as string).split(/[\s,()]+/)) if (/^\w+$/.test(n) && n !== "as") out.push(`${m[1]}.${n}`);
  }
  for (const m of code.matchAll(/\bimport\s+([\w.]+(?:\s*,\s*[\w.]+)*)/g)) out.push(...(m[1] as string).split(/\s*,\s*/));
  for (const m of code.matchAll(/(?:__import__|import_module|run_module)\(\s*["']([\w.]+)["']/g)) out.push(m[1] as string);
  return out.filter((n) => !n.startsWith("."));
}

/** The scripts package.json's (or deno.json's) `name` task runs, with those run before and after it. */
function packageScripts(manifest: string, key: "scripts" | "tasks", name: string, base: string, depth: number): string[] {
  let scripts: Record<string, unknown> = {};
  try {
    const doc = JSON.parse((readScript(manifest) ?? "{}").replace(/^\s*\/\/.*$/gm, "")) as Record<string, Record<string, unknown>>;
    scripts = doc[key] ?? {};
  } catch {
    // An unreadable manifest names nothing more; writing it is still writing what runs.
  }
  const out: string[] = [];
  for (const k of [`pre${name}`, name, `post${name}`]) {
    const v = scripts[k];
    const script = typeof v === "string" ? v : typeof v === "object" && v !== null ? (v as { command?: unknown }).command : undefined;
    if (typeof script === "string") out.push(...namedBy(script, base, depth + 1));
  }
  return out;
}

/**
 * What the recipe of `target` (the first rule's when none is given) in a Makefile or justfile names (`lint:` then
 * `\t./scripts/lint.sh`): a hook's `make lint` runs those too (round 31's open item). Only the target's own lines are read.
 */
function recipeNames(file: string, target: string | undefined, base: string, depth: number): string[] {
  const text = readScript(file);
  if (text === null) return [];
  const out: string[] = [];
  let inside = false;
  let seenRule = false;
  for (const line of text.split("\n")) {
    if (/^\s/.test(line)) {
      if (inside && line.trim() !== "") out.push(...namedBy(line.trim().replace(/^[@+-]+/, ""), base, depth + 1));
      continue;
    }
    const rule = /^([\w./%-][^:=#\s]*(?:\s+[^:=#]*)?)\s*:(?!=)/.exec(line);
    if (rule === null) {
      if (line.trim() !== "" && !line.startsWith("#")) inside = false;
      continue;
    }
    const names = (rule[1] as string).trim().split(/\s+/);
    inside = target === undefined ? !seenRule && !(names[0] as string).startsWith(".") : names.includes(target);
    if (!(names[0] as string).startsWith(".")) seenRule = true;
  }
  return out;
}

/**
 * The files a command runs that it does not spell as a path (stop 48's open
 * item): `python3 -m tools.fmt` (tools/fmt.py, the package's `__init__.py`,
 * tools/fmt/), `node server` (server.js), `npm run fmt` (package.json and what
 * its script names), `make lint` (the Makefile). The interpreter may come after
 * wrappers and runners (`env -u X node x`, `timeout 9 node x`, `npx tsx x`,
 * `pnpm exec node x`, `poetry run python -m x`, `uv run -m x`; round 31).
 */
function implied(words: readonly string[], base: string, depth: number): string[] {
  const at = (w: string) => posix.resolve(base, w);
  const out: string[] = [];
  // `uv run -m tools.x`, `python3 -mtools.x`, `poetry run python -m tools.x`: a module, wherever the -m is.
  const python = words.some((w) => /^(?:python[\d.]*|pypy3?|uv|uvx|poetry|pipenv|pdm|hatch|rye|conda|pixi)$/.test(posix.basename(w)));
  if (python)
    for (let k = 0; k < words.length; k++) {
      const w = words[k] as string;
      const mod = w === "-m" || w === "--module" ? words[k + 1] : /^-m([\w.]+)$/.exec(w)?.[1];
      if (mod !== undefined && /^[\w.]+$/.test(mod)) out.push(...modulePaths(mod, at));
      // `python3 -c 'import tools.fmt'`: the modules the code imports.
      if (/^-[a-zA-Z]*c$/.test(w) && words[k + 1] !== undefined)
        for (const m of importedModules(words.slice(k + 1).join(" "))) out.push(...modulePaths(m, at));
    }
  const i = words.findIndex(
    (w) => INTERPRETER.test(posix.basename(w)) || PACKAGE_RUNNER.test(posix.basename(w)) || Object.hasOwn(TASK_FILES, posix.basename(w)),
  );
  if (i < 0) return out;
  const program = posix.basename(words[i] as string);
  const rest = words.slice(i + 1);
  if (program === "deno" && rest[0] === "task") {
    const manifests = ["deno.json", "deno.jsonc"].map(at);
    out.push(...manifests);
    if (rest[1] !== undefined && depth === 0) for (const m of manifests) out.push(...packageScripts(m, "tasks", rest[1], base, depth));
    return out;
  }
  if (INTERPRETER.test(program)) {
    // `bash -c CODE`, `node -e CODE`: the code is inline (the paths in it are named by namedBy).
    const inline = rest.some((w) => /^-(?:c|e|E|-eval|-print|p)$/.test(w));
    for (let k = 0; k < rest.length; k++) {
      const w = rest[k] as string;
      if (PRELOAD.test(w) && rest[k + 1] !== undefined)
        out.push(...[rest[k + 1] as string, ...SCRIPT_EXTENSIONS.map((x) => rest[k + 1] + x)].map(at));
      const eq = /^--(?:require|import|loader|experimental-loader)=(.+)$/.exec(w)?.[1];
      if (eq !== undefined) out.push(...[eq, ...SCRIPT_EXTENSIONS.map((x) => eq + x)].map(at));
    }
    if (!inline && !rest.some((w) => w === "-m" || /^-m\w/.test(w))) {
      const k = rest.findIndex((w, n) => !w.startsWith("-") && !SCRIPT_VALUED.test(rest[n - 1] ?? ""));
      const script = k < 0 ? undefined : rest[k];
      // `bun run fmt`, `bun fmt`: a file or the package's script of that name.
      const named = program === "bun" && script === "run" ? rest[k + 1] : script;
      if (named !== undefined) out.push(at(named), runsIn(at(named)), ...SCRIPT_EXTENSIONS.map((x) => at(named + x)));
    }
    if (program !== "bun") return out;
  }
  const tasks = TASK_FILES[program];
  if (tasks !== undefined) {
    const f = rest.findIndex((w) => w === "-f" || w === "--file" || w === "--makefile" || w === "--justfile" || w === "--taskfile");
    const files = [...tasks, ...(f >= 0 && rest[f + 1] !== undefined ? [rest[f + 1] as string] : [])].map(at);
    const target = rest.find(
      (w, n) => !w.startsWith("-") && !w.includes("=") && !/^-[fCI]$|^--(?:file|makefile|justfile)$/.test(rest[n - 1] ?? ""),
    );
    if (depth === 0 && program !== "task") for (const file of files) out.push(...recipeNames(file, target, base, depth));
    return [...out, ...files];
  }
  const manifest = at("package.json");
  out.push(manifest);
  // The script's name: the first operand after the runner's options (`npm --prefix . run fmt`, `npm run-script fmt`).
  const ops = rest.filter((w, n) => !w.startsWith("-") && !RUNNER_VALUED.test(rest[n - 1] ?? ""));
  const name = ops[0] === "run" || ops[0] === "run-script" || ops[0] === "rum" || ops[0] === "urn" ? ops[1] : ops[0];
  if (name === undefined || depth > 0) return out;
  out.push(...packageScripts(manifest, "scripts", name, base, depth));
  return out;
}

/** The root variable alone (`cd "$CLAUDE_PROJECT_DIR"`), as these files spell it. */
const ROOT_ALONE = /^["']?\$\{?(?:CLAUDE_PROJECT_DIR|workspaceFolder|workspaceRoot|PWD|containerWorkspaceFolder)\}?["']?$/;

/** The paths one command string names, resolved against `root` (a `cd` moves the base for what follows it). */
function namedBy(value: string, root: string, depth: number): string[] {
  const out: string[] = [];
  // `cd "$CLAUDE_PROJECT_DIR/scripts" && ./fmt.sh`: what follows a cd is named from there (round 29).
  let base = root;
  for (const whole of value.split(/&&|\|\||;|\n/)) {
    // `(cd x && ./a.sh)`, `{ cd x; ./a.sh; }`: the grouping is not part of the command.
    const part = whole.replace(/^[\s({]+/, "").replace(/[\s)}]+$/, "");
    const cd = /^cd(?:\s+-[LP@e]+)*(?:\s+--)?\s+(\S+)$/.exec(part)?.[1];
    if (cd !== undefined) {
      // `cd "$CLAUDE_PROJECT_DIR"` (round 31: it resolved as a directory named so); a cd somewhere not known: the root.
      base =
        ROOT_ALONE.test(cd) || /^["']?[$~]/.test(bare(cd)) ? root : posix.resolve(ROOT_VARIABLE.test(cd) ? root : base, bare(cd) || ".");
      continue;
    }
    for (const raw of part.split(/[\s|()<>=]+/)) {
      const word = bare(raw);
      if (word === "" || !FILE_WORD.test(raw) || /^[a-z][\w+.-]*:\/\//i.test(word) || word.startsWith("-")) continue;
      if (word.startsWith("~/") || word.startsWith("$")) continue;
      const p = posix.resolve(ROOT_VARIABLE.test(raw) ? root : base, word);
      // `node -e 'require("./tools/x")'`: a runner tries the usual extensions after a name without one.
      out.push(p, ...(/\.\w+$/.test(word) ? [] : SCRIPT_EXTENSIONS.map((x) => p + x)));
    }
    out.push(...implied(part.trim().split(/\s+/).map(bare), base, depth));
  }
  return out;
}

/** The paths the settings under `root` (and Claude Code's in `home`) name, once per command. */
function namedUnder(root: string, home: string | null): ReadonlySet<string> {
  const key = `${root}\0${home ?? ""}`;
  let found = named.get(key);
  if (found === undefined) {
    const files = SETTINGS.map((f) => [posix.join(root, f), root]);
    if (home !== null) files.push([posix.join(home, ".claude/settings.json"), root]);
    found = new Set(files.flatMap(([f, r]) => namesIn(f as string, r as string)));
    named.set(key, found);
  }
  return found;
}

/** Whether the settings of a workspace root holding `path` (or Claude Code's in `home`) name it as something they run. */
export function agentSteered(path: string, roots: readonly string[], home: string | null): boolean {
  return roots.some((root) => {
    if (path !== root && !path.startsWith(`${root}/`)) return false;
    const named = namedUnder(root, home);
    if (named.has(path)) return true;
    // A directory an interpreter runs runs what is in it (`python3 tools/mcp` runs its __main__.py, `node tools/srv` its
    // index.js); a directory only named as an argument (`ruff check src/`, `eslint src/`) does not (round 31).
    for (let p = path; p.length > root.length; p = posix.dirname(p)) if (named.has(runsIn(p))) return true;
    return false;
  });
}

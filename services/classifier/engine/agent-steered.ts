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
/** Task runners and the files they read their tasks from. */
const TASK_FILES: Record<string, readonly string[]> = {
  make: ["Makefile", "makefile", "GNUmakefile"],
  gmake: ["Makefile", "makefile", "GNUmakefile"],
  just: ["justfile", "Justfile", ".justfile"],
  task: ["Taskfile.yml", "Taskfile.yaml"],
};

/**
 * The files a command runs that it does not spell as a path (stop 48's open
 * item): `python3 -m tools.fmt` (tools/fmt.py, the package's `__init__.py`,
 * tools/fmt/), `node server` (server.js), `npm run fmt` (package.json and what
 * its script names), `make lint` (the Makefile).
 */
function implied(words: readonly string[], base: string, depth: number): string[] {
  let i = 0;
  while (i < words.length && (/^\w+=/.test(words[i] as string) || /^(?:env|exec|command|nice|time)$/.test(words[i] as string))) i++;
  const program = posix.basename(words[i] ?? "");
  const rest = words.slice(i + 1);
  const at = (w: string) => posix.resolve(base, w);
  if (INTERPRETER.test(program)) {
    const m = rest.indexOf("-m");
    if (m >= 0 && rest[m + 1] !== undefined) {
      const parts = (rest[m + 1] as string).split(".");
      const packages = parts.slice(0, -1).map((_, n) => at(`${parts.slice(0, n + 1).join("/")}/__init__.py`));
      return [...packages, at(parts.join("/")), at(`${parts.join("/")}.py`)];
    }
    // `bash -c CODE`, `node -e CODE`: the code is inline (the paths in it are named above).
    if (rest.some((w) => /^-(?:c|e|E|-eval|-print|p)$/.test(w))) return [];
    const script = rest.find((w) => !w.startsWith("-"));
    return script === undefined ? [] : [script, ...[".js", ".mjs", ".cjs", ".ts", ".py"].map((x) => script + x)].map(at);
  }
  const tasks = TASK_FILES[program];
  if (tasks !== undefined) {
    const f = rest.indexOf("-f");
    return [...tasks, ...(f >= 0 && rest[f + 1] !== undefined ? [rest[f + 1] as string] : [])].map(at);
  }
  if (!PACKAGE_RUNNER.test(program)) return [];
  const manifest = at("package.json");
  const out = [manifest];
  const name = rest[0] === "run" || rest[0] === "run-script" ? rest[1] : rest[0];
  if (name === undefined || depth > 0) return out;
  let scripts: Record<string, unknown> = {};
  try {
    scripts = (JSON.parse(readScript(manifest) ?? "{}") as { scripts?: Record<string, unknown> }).scripts ?? {};
  } catch {
    // An unreadable package.json names nothing more; writing it is still writing what runs.
  }
  for (const key of [`pre${name}`, name, `post${name}`]) {
    const script = scripts[key];
    if (typeof script === "string") out.push(...namedBy(script, base, depth + 1));
  }
  return out;
}

/** The paths one command string names, resolved against `root` (a `cd` moves the base for what follows it). */
function namedBy(value: string, root: string, depth: number): string[] {
  const out: string[] = [];
  // `cd "$CLAUDE_PROJECT_DIR/scripts" && ./fmt.sh`: what follows a cd is named from there (round 29).
  let base = root;
  for (const part of value.split(/&&|\|\||;|\n/)) {
    const cd = /^\s*cd\s+(\S+)\s*$/.exec(part)?.[1];
    if (cd !== undefined) {
      base = posix.resolve(base, bare(cd) || ".");
      continue;
    }
    for (const raw of part.split(/[\s|()<>=]+/)) {
      const word = bare(raw);
      if (word === "" || !FILE_WORD.test(raw) || /^[a-z][\w+.-]*:\/\//i.test(word) || word.startsWith("-")) continue;
      if (word.startsWith("~/") || word.startsWith("$")) continue;
      out.push(posix.resolve(ROOT_VARIABLE.test(raw) ? root : base, word));
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
    // A named directory runs what is in it (`python3 tools/mcp` runs its __main__.py, `node tools/srv` its index.js).
    for (let p = path; p.length > root.length; p = posix.dirname(p)) if (named.has(p)) return true;
    return false;
  });
}

// Environment runners: uv/poetry/pipenv/pdm/hatch/rye run, bundle exec,
// conda/mamba/micromamba run. The command they run is judged like any other.
import type { TierNumber } from "../../../shared/tier.js";
import type { Word } from "../types.js";
import { firstOperand, literalWord, unwrap } from "../unwrap.js";
import type { Delegate, Unwrap } from "../unwrap.js";

interface Runner {
  /** The subcommand that runs a command (`uv run`, `bundle exec`). */
  sub: string;
  /** Options (before and after the subcommand) that take a separate value. */
  values: readonly string[];
  floor: TierNumber;
  /** `hatch run env:cmd`: a prefix naming an environment, not part of the command. */
  envPrefix?: boolean;
}

const UV_VALUES = [
  "--with",
  "--with-editable",
  "--with-requirements",
  "--extra",
  "--group",
  "--only-group",
  "--no-group",
  "--package",
  "-p",
  "--python",
  "--env-file",
  "--directory",
  "--project",
  "--index",
  "--default-index",
  "-i",
  "--index-url",
  "--extra-index-url",
  "-f",
  "--find-links",
  "--index-strategy",
  "--keyring-provider",
  "--resolution",
  "--prerelease",
  "--exclude-newer",
  "--link-mode",
  "--cache-dir",
  "--config-file",
  "--color",
  "-P",
  "--upgrade-package",
  "--reinstall-package",
  "--refresh-package",
  "--no-build-package",
  "--no-binary-package",
  "-C",
  "--config-setting",
  "--python-platform",
  "--allow-insecure-host",
  "--no-extra",
];

/** Environment runners: they run their arguments as a command inside a project environment. */
const RUNNERS: Record<string, Runner> = {
  uv: { sub: "run", values: UV_VALUES, floor: 1 },
  poetry: { sub: "run", values: ["-C", "--directory", "-P", "--project"], floor: 1 },
  pipenv: { sub: "run", values: ["--python"], floor: 1 },
  pdm: { sub: "run", values: ["-p", "--project", "--venv"], floor: 1 },
  hatch: { sub: "run", values: ["-e", "--env"], floor: 1, envPrefix: true },
  rye: { sub: "run", values: ["--pyproject"], floor: 1 },
  bundle: { sub: "exec", values: ["--gemfile"], floor: 1 },
  conda: { sub: "run", values: ["-n", "--name", "-p", "--prefix", "--cwd"], floor: 2 },
  mamba: { sub: "run", values: ["-n", "--name", "-p", "--prefix", "--cwd"], floor: 2 },
  micromamba: { sub: "run", values: ["-n", "--name", "-p", "--prefix", "--cwd"], floor: 2 },
};

/** A file named from outside the workspace: absolute, in the home directory, up the tree, or computed. */
export function outside(text: string): boolean {
  return /^(\/|~|\$)/.test(text) || text.split("/").includes("..");
}

/** `uv run CMD …`, `poetry run …`, `bundle exec …`: the command is judged like any other. */
function runner(name: string, spec: Runner, args: Word[]): Unwrap | null {
  const values = new Set(spec.values);
  const at = firstOperand(args, values);
  if (args[at]?.text !== spec.sub) return null;
  const start = firstOperand(args, values, at + 1);
  const cmd = args.slice(start);
  if (cmd.length === 0) return null;
  const head = cmd[0] as Word;
  const program = spec.envPrefix && /^[\w.-]+:/.test(head.text) ? { ...head, text: head.text.replace(/^[\w.-]+:/, "") } : head;
  // `uv run script.py`: a Python file runs as a script.
  const argv =
    /\.py$/.test(program.text) && name !== "bundle" ? [literalWord("\u0000script"), program, ...cmd.slice(1)] : [program, ...cmd.slice(1)];
  // Packages the project does not declare, or an index that can serve any package (`uv run --with evil pytest`:
  // pytest loads the plugins its environment holds, a .pth file runs at every start-up), or a Gemfile — Ruby code —
  // from outside the workspace: code no one has seen.
  const own = args.slice(0, start);
  const optionValue = (w: Word, i: number): Word | undefined =>
    w.text.includes("=") ? { ...w, text: w.text.slice(w.text.indexOf("=") + 1) } : own[i + 1];
  const extra = own.find((w, i) => {
    const v = optionValue(w, i);
    if (v === undefined) return false;
    if (name === "bundle") return /^--gemfile(=|$)/.test(w.text) && (v.dynamic || outside(v.text));
    // An interpreter by path, not by version or name (`--python=/tmp/x/python3`, round 25): it runs.
    if ((name === "uv" || name === "pipenv") && /^(-p|--python)(=|$)/.test(w.text)) return v.dynamic || v.text.includes("/");
    if (name !== "uv") return false;
    // Another index serves every package, the project's own dependencies too (`--index https://evil …`).
    if (/^(--index|--default-index|-i|--index-url|--extra-index-url|-f|--find-links)(=|$)/.test(w.text)) return true;
    // A requirement from git, a URL or a path (`--with 'x @ git+https://…'`); a plain registry name stays as `npx NAME`.
    if (/^--with(=|$)/.test(w.text)) return v.dynamic || v.text.split(",").some((r) => /[@:/\\]/.test(r));
    return /^--with-(editable|requirements)(=|$)/.test(w.text) && (v.dynamic || outside(v.text));
  });
  if (extra)
    return unwrap(
      `delegate:${name}-${spec.sub}`,
      2,
      `${name} ${spec.sub} ${extra.text}: adds code the project does not declare (code no one has seen)`,
      {
        inner: [argv],
      },
    );
  return unwrap(`delegate:${name}-${spec.sub}`, spec.floor, `${name} ${spec.sub} runs a command in the project environment`, {
    inner: [argv],
  });
}

export const runnerDelegate: Delegate = (name, args) => runner(name, RUNNERS[name] as Runner, args);

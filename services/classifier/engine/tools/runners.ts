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
  return unwrap(`delegate:${name}-${spec.sub}`, spec.floor, `${name} ${spec.sub} runs a command in the project environment`, {
    inner: [argv],
  });
}

export const runnerDelegate: Delegate = (name, args) => runner(name, RUNNERS[name] as Runner, args);

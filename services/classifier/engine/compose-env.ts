// `docker compose config` prints the project's compose file as Compose
// reads it: `${VAR}` filled in from the project directory's `.env` and each
// service's `env_file:` entries copied into its `environment:` — the
// secrets a `cat .env` would print — and `${VAR}` from the process
// environment. So it is a secret read; the options that print only names
// (`--services`, `--volumes` …) or nothing (`-q`) are not.
import { existsSync, readFileSync } from "node:fs";
import { posix } from "node:path";
import { resolvePlace } from "./paths.js";
import { secretFile } from "./secret-files.js";
import type { Context, Word } from "./types.js";

/** `docker compose config` options that print names, hashes or nothing, never the configuration. */
const NAMES_ONLY = /^(--services|--volumes|--profiles|--images|--networks|--hash(=.*)?|-q|--quiet)$/;
const COMPOSE_FILES = ["compose.yaml", "compose.yml", "docker-compose.yaml", "docker-compose.yml"];
/** Compose's own options that take a value (`docker compose -f x.yml config`). */
const COMPOSE_VALUES = /^(-f|--file|-p|--project-name|--project-directory|--env-file|--profile|--ansi|--progress|--parallel)$/;

/** The words after `config` and the project directory's word, or null when this is not `docker compose config`. */
function composeConfig(name: string, args: readonly Word[]): { after: readonly Word[]; dir: Word | null } | null {
  const compose = name === "docker-compose" ? 0 : (name === "docker" || name === "podman") && args[0]?.text === "compose" ? 1 : -1;
  if (compose < 0) return null;
  let dir: Word | null = null;
  let i = compose;
  for (; i < args.length && (args[i] as Word).text.startsWith("-"); i++) {
    const t = (args[i] as Word).text;
    const glued = /^--project-directory=(.*)$/.exec(t);
    if (glued) dir = { ...(args[i] as Word), text: glued[1] as string };
    else if (COMPOSE_VALUES.test(t)) {
      if (t === "--project-directory" && args[i + 1]) dir = args[i + 1] as Word;
      i++;
    }
  }
  if (args[i]?.text !== "config" && args[i]?.text !== "convert") return null;
  return { after: args.slice(i + 1), dir };
}

/** Whether a compose file in `dir` copies an env file into a service (`env_file:`). */
function loadsEnvFile(dir: string): boolean {
  for (const f of COMPOSE_FILES) {
    try {
      if (/^\s*env_file\s*:/m.test(readFileSync(posix.join(dir, f), "utf8").slice(0, 200_000))) return true;
    } catch {
      // not there
    }
  }
  return false;
}

/** Why this command prints a compose configuration filled in from the project's secrets, or undefined. */
export function composeConfigSecret(name: string, args: readonly Word[], ctx: Context): string | undefined {
  const c = composeConfig(name, args);
  if (c === null || c.after.some((w) => NAMES_ONLY.test(w.text))) return undefined;
  const dir = c.dir === null ? ctx.cwd || null : resolvePlace(c.dir, ctx).path;
  if (dir !== null) {
    const dotenv = posix.join(dir, ".env");
    if (existsSync(dotenv) && secretFile(dotenv)) return `prints the compose configuration with ${dotenv} filled in`;
    if (loadsEnvFile(dir)) return `prints the compose configuration with the env_file of its services (in ${dir}) filled in`;
  }
  // Compose also finds its file and .env in a parent directory, takes COMPOSE_FILE, reads env_file in any syntax and
  // override files, and fills `${VAR}` from the process environment: any configuration it prints may hold them.
  return "prints the compose configuration with variables filled in from the environment and the project's env files";
}

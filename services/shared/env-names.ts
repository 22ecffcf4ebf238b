// Which environment variable names may carry a secret into a root command
// (`env_secrets` on /exec). The gateway checks them to answer 400 early; the
// classifier and the concurrence refuse (tier 4) a command bound to any
// other name, and the executor checks again before it sets one: a gateway
// that adds GIT_SSH_COMMAND or LD_PRELOAD to a vetted command gets nowhere.
//
// A name must look like a credential (…_PASSWORD, …_TOKEN, …_SECRET, …_KEY,
// …_API_KEY, …_DSN, or PGPASSWORD / MYSQL_PWD — not …_CREDENTIALS, which
// usually names a file) and must not be one that steers the loader, the
// shell, a runtime or a tool's trust (GIT_*, SSL_*, CURL_*).

export const MAX_ENV_SECRETS = 32;
/** Largest value the executor accepts for one variable. */
export const MAX_ENV_VALUE_BYTES = 8 * 1024;

const NAME = /^[A-Z_][A-Z0-9_]{0,63}$/;
const SECRET_SHAPED = /^(?:[A-Z][A-Z0-9_]*_(?:PASSWORD|PASSWD|PASS|TOKEN|SECRET|KEY|API_KEY|DSN)|PGPASSWORD|MYSQL_PWD)$/;

/** Names that change how the loader, the shell or common runtimes behave. */
const STEERING = new Set([
  "PATH",
  "HOME",
  "USER",
  "LOGNAME",
  "SHELL",
  "IFS",
  "ENV",
  "BASH_ENV",
  "SHELLOPTS",
  "BASHOPTS",
  "PS4",
  "PROMPT_COMMAND",
  "CDPATH",
  "GLOBIGNORE",
  "TMPDIR",
  "NODE_OPTIONS",
  "PYTHONPATH",
  "PYTHONSTARTUP",
  "PERL5LIB",
  "PERL5OPT",
  "RUBYOPT",
  "GIT_SSH_COMMAND",
  "GIT_EXEC_PATH",
  "SUDO_ASKPASS",
  "SSH_ASKPASS",
  "GIT_ASKPASS",
  "LANG",
  "TERM",
]);
// GIT_SSL_KEY, SSL_CERT_… and the like name files a tool then trusts.
const STEERING_PREFIXES = ["LD_", "BASH_FUNC_", "DYLD_", "GIT_", "NODE_", "PYTHON", "PERL", "RUBY", "SSL_", "CURL_", "OPENSSL_"];

/** Why `name` may not carry a secret, or undefined when it may. */
export function envNameProblem(name: string): string | undefined {
  if (!NAME.test(name)) return `${JSON.stringify(name.slice(0, 64))} is not a variable name (A-Z, 0-9, _, at most 64)`;
  if (STEERING.has(name) || STEERING_PREFIXES.some((p) => name.startsWith(p))) return `${name} steers the loader, the shell or a runtime`;
  if (!SECRET_SHAPED.test(name))
    return `${name} is not named like a credential (…_PASSWORD, …_TOKEN, …_SECRET, …_KEY, …_DSN, PGPASSWORD, MYSQL_PWD)`;
  return undefined;
}

/** The first problem with a list of names (count, duplicates, each name), or undefined. */
export function envNamesProblem(names: readonly string[]): string | undefined {
  if (names.length > MAX_ENV_SECRETS) return `at most ${MAX_ENV_SECRETS} secret variables`;
  if (new Set(names).size !== names.length) return "a variable is named twice";
  for (const n of names) {
    const p = envNameProblem(n);
    if (p) return p;
  }
  return undefined;
}

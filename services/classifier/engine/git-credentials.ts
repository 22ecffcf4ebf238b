// A repository's config can hold a credential: a remote URL with a token in
// it (`https://x-access-token:TOKEN@github.com/…`, `https://TOKEN@host/…`)
// or an `http.extraheader` carrying an Authorization header (what
// actions/checkout writes unless persist-credentials is off). Such a config
// is a secret file: printing it (`cat .git/config`, `git config --list`,
// `git remote -v`, `grep -r x .`, which reads `.git`) prints the credential.
import { posix } from "node:path";
import { commonDir, repoOf } from "./git-index.js";
import { readScript } from "./host-paths.js";
import type { Word } from "./types.js";

/** A URL with a password, or an http(s) URL with any user (a token given as the user name). */
const URL_CREDENTIAL = /^\s*(?:push)?url\s*=\s*"?(?:[a-z][a-z0-9+.-]*:\/\/[^/\s@:]+:[^/\s@]+@|https?:\/\/[^/\s@]+@)/im;
/**
 * An extra header (`extraheader = AUTHORIZATION: basic …`, or any other: `X-Api-Key: …`), a proxy URL with a
 * password, sendemail's SMTP password, or a credential helper written inline (`!f() { echo password=…; }; f`) —
 * round 23: git printed each of them.
 */
const HEADER_CREDENTIAL = /^\s*(?:extraheader\s*=|proxy\s*=\s*"?[a-z][a-z0-9+.-]*:\/\/[^/\s@:]+:[^/\s@]+@|smtppass\s*=|helper\s*=\s*"?!)/im;
/**
 * A URL section whose name carries one: `[url "https://x-access-token:TOKEN@github.com/"] insteadOf = …` (Go's
 * private-module recipe), printed by `git remote -v` as every URL it rewrites (round 22).
 */
const SECTION_CREDENTIAL = /^\s*\[\s*(?:url|http|credential)\s+"(?:[a-z][a-z0-9+.-]*:\/\/[^/\s@:"]+:[^/\s@"]+@|https?:\/\/[^/\s@"]+@)/im;

/**
 * Whether the git config file at `path` holds a credential (read once per
 * command). A config too large or unreadable here counts as not holding one:
 * the file's name alone makes no secret of it.
 */
export function configHoldsCredential(path: string): boolean {
  const text = readScript(path);
  return text !== null && (URL_CREDENTIAL.test(text) || HEADER_CREDENTIAL.test(text) || SECTION_CREDENTIAL.test(text));
}

/**
 * A path that is a git config file: a repository's (`…/.git/config`, a bare
 * repository's `config` beside its `HEAD`), or a user's (`~/.gitconfig`,
 * `~/.config/git/config`), whose settings every repository reads.
 */
export function gitConfigFile(path: string): boolean {
  return (
    path.endsWith("/.git/config") ||
    USER_CONFIG.test(path) ||
    (posix.basename(path) === "config" && readScript(posix.join(posix.dirname(path), "HEAD")) !== null)
  );
}

const USER_CONFIG = /\/(?:\.gitconfig|\.config\/git\/config)$/;

/**
 * git subcommands that print the repository's config values or its remotes'
 * URLs: `config --list`/`-l`/`--get*`/`get`/`list`, `remote -v`/`get-url`/
 * `show`, `ls-remote --get-url`.
 */
function printsConfig(sub: string, rest: readonly Word[]): boolean {
  const t = rest.map((w) => w.text);
  switch (sub) {
    case "config": {
      // -l alone or in a bundle (`-lz`, `-zl`), `list`, `get --regexp|--all|--url`.
      if (t.some((x) => /^(-[a-z]*l[a-z]*|--list|--get-regexp|--get-urlmatch|--regexp|--all|--url(=.*)?)$/.test(x) || x === "list"))
        return true;
      // A single key read (`--get KEY`, `get KEY`, `KEY`): one that holds a URL or a header.
      if (
        t.some((x) => /^(--unset|--add|--replace-all|--rename-section|--remove-section|-e|--edit)/.test(x) || x === "set" || x === "unset")
      )
        return false;
      const keys = t.filter((x) => !x.startsWith("-") && x !== "get");
      return (
        keys.length > 0 &&
        CREDENTIAL_KEY.test(keys[0] as string) &&
        (keys.length === 1 || t.some((x) => /^--get(-all)?$/.test(x) || x === "get"))
      );
    }
    case "remote":
      return t.includes("-v") || t.includes("--verbose") || t[0] === "get-url" || t[0] === "show";
    case "ls-remote":
      return t.includes("--get-url");
    case "var":
      return t.includes("-l");
    default:
      return false;
  }
}

/** Config keys whose values may carry a credential. */
const CREDENTIAL_KEY = /url|extraheader|^remote\.|^http\.|^credential/i;

/** Why this git command prints a credential its repository's config holds, or undefined. */
export function gitPrintsCredential(sub: string, rest: readonly Word[], cwd: string, home: string | null): string | undefined {
  if (!printsConfig(sub, rest) || !cwd) return undefined;
  const config = credentialConfig(cwd, home);
  return config === null ? undefined : `prints ${config}, which holds a credential (a token in a remote URL or an Authorization header)`;
}

/**
 * The config git reads in `cwd` that holds a credential, or null: the
 * user's own (`~/.gitconfig`, `~/.config/git/config`: what `git config
 * --list` and `git remote -v` print everywhere, round 22), the repository's,
 * and for a linked worktree the main repository's (its `commondir`).
 */
export function credentialConfig(cwd: string, home: string | null): string | null {
  const user = home === null ? [] : [posix.join(home, ".gitconfig"), posix.join(home, ".config/git/config")];
  for (const config of user) if (configHoldsCredential(config)) return config;
  const repo = repoOf(cwd);
  if (repo === null) return null;
  const common = commonDir(repo.gitDir);
  const dirs = common === repo.gitDir ? [repo.gitDir] : [repo.gitDir, common];
  for (const d of dirs) {
    const config = posix.join(d, "config");
    if (configHoldsCredential(config)) return config;
  }
  return null;
}

// The verb heuristic for policy misses on server-01 (primary never guesses):
// read verbs → 0, reproducible verbs → 2, service verbs → 3, destructive or
// conflicting verbs → 4, structurally ordinary unknowns → 2.
import type { TierNumber } from "../../shared/tier.js";
import type { Word } from "./types.js";

const READ = new Set([
  "ls",
  "list",
  "show",
  "status",
  "get",
  "describe",
  "inspect",
  "info",
  "version",
  "--version",
  "-V",
  "--help",
  "help",
  "cat",
  "logs",
  "log",
  "view",
  "search",
  "check",
  "diff",
  "top",
  "ps",
  "stats",
  "print",
  "display",
  "query",
  "lookup",
  "which",
  "history",
  "tree",
  "count",
  "whoami",
  "env-list",
  "ping",
  "verify",
  "validate",
  "explain",
  "describe-instances",
]);
const REPRODUCIBLE = new Set([
  "install",
  "add",
  "build",
  "create",
  "init",
  "new",
  "generate",
  "compile",
  "copy",
  "cp",
  "mkdir",
  "touch",
  "update",
  "upgrade",
  "set",
  "clone",
  "pull",
  "fetch",
  "download",
  "sync",
  "link",
  "tag",
  "commit",
  "write",
  "edit",
  "import",
  "render",
  "test",
  "lint",
  "fmt",
  "bundle",
  "package",
  "pack",
  "extract",
  "unpack",
  "save",
  "load",
  "config",
]);
const SERVICE = new Set([
  "start",
  "stop",
  "restart",
  "reload",
  "deploy",
  "up",
  "down",
  "run",
  "exec",
  "kill",
  "scale",
  "rollout",
  "enable",
  "disable",
  "mask",
  "unmask",
  "push",
  "publish",
  "migrate",
  "serve",
  "attach",
  "rollback",
  "apply",
  "promote",
  "login",
  "logout",
  "mount",
  "umount",
  "send",
  "post",
  "put",
  "patch",
  "restore",
  "replace",
  "upgrade-db",
]);
const DESTRUCTIVE = new Set([
  "rm",
  "remove",
  "delete",
  "del",
  "drop",
  "purge",
  "destroy",
  "wipe",
  "erase",
  "format",
  "reset",
  "prune",
  "truncate",
  "flush",
  "flushall",
  "clear",
  "clean",
  "uninstall",
  "shred",
  "revoke",
  "terminate",
  "nuke",
  "overwrite",
  "kill-all",
  "killall",
  "force",
  "--force",
  "-f",
  "--hard",
  "--purge",
]);

const ORDINARY_NAME = /^[a-z0-9][a-z0-9._+-]*$/;
const ORDINARY_ARG = /^[A-Za-z0-9_./:=,@%+-]*$/;

export interface Guess {
  tier: TierNumber;
  reason: string;
}

/** Guess a tier for an unlisted command from its verbs. Never used on primary. */
export function guessByVerb(words: readonly Word[]): Guess {
  const name = words[0]?.text ?? "";
  const verbs = words.map((w) => w.text.toLowerCase());
  if (verbs.some((v) => DESTRUCTIVE.has(v))) return { tier: 4, reason: "verb heuristic: a destructive verb is ambiguous" };
  const sub = verbs.slice(1).find((v) => !v.startsWith("-")) ?? "";
  const classes = [name, sub].map((v) => (SERVICE.has(v) ? 3 : REPRODUCIBLE.has(v) ? 2 : READ.has(v) ? 0 : -1));
  const flagsRead = verbs.length === 2 && (verbs[1] === "--version" || verbs[1] === "--help");
  if (flagsRead) return { tier: 0, reason: "verb heuristic: help or version" };
  const known = classes.filter((c) => c >= 0);
  const ordinary = ORDINARY_NAME.test(name) && words.every((w) => !w.dynamic && !w.confusable && ORDINARY_ARG.test(w.text));
  if (known.length === 0) {
    return ordinary
      ? { tier: 2, reason: "verb heuristic: unknown but ordinary; prove it in the sandbox" }
      : { tier: 4, reason: "verb heuristic: unknown and not ordinary" };
  }
  const tier = Math.max(...known) as TierNumber;
  if (!ordinary && tier < 2) return { tier: 2, reason: "verb heuristic: read verb with unusual arguments" };
  const label = tier === 0 ? "read" : tier === 2 ? "reproducible" : "service";
  return { tier, reason: `verb heuristic: ${label} verb` };
}

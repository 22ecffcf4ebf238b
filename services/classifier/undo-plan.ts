// The undo plan for a command that had no sandbox trial (tiers 1 and 3):
// every word that names a path, and every redirection target, resolved
// against the cwd. Over-inclusive on purpose: capturing a file the command
// does not touch costs a copy; missing one loses the undo.
import { isAbsolute, normalize, resolve } from "node:path";

const MAX_PATHS = 256;
// Verbs whose plain arguments are files they may change.
const FILE_VERBS = new Set([
  "sed",
  "tee",
  "cp",
  "mv",
  "rm",
  "touch",
  "chmod",
  "chown",
  "chgrp",
  "ln",
  "install",
  "truncate",
  "mkdir",
  "rmdir",
  "patch",
  "dd",
  "unlink",
  "shred",
]);

function words(command: string): string[] {
  return command
    .replace(/\\\n/g, " ")
    .split(/(?:\s+|(?=[;&|()<>])|(?<=[;&|()<>]))/)
    .map((w) => w.replace(/^['"]|['"]$/g, ""))
    .filter(Boolean);
}

function looksLikePath(word: string): boolean {
  return (
    (word.startsWith("/") || word.startsWith("./") || word.startsWith("../") || word.includes("/")) &&
    !word.includes("://") &&
    !word.includes("$") &&
    !word.includes("`")
  );
}

export function undoPlan(command: string, cwd: string): string[] {
  const out = new Set<string>();
  const ws = words(command);
  let verb = "";
  let expectVerb = true;
  for (let i = 0; i < ws.length; i++) {
    const w = ws[i] ?? "";
    if ([";", "&", "|", "(", ")"].includes(w)) {
      expectVerb = true;
      continue;
    }
    if (expectVerb) {
      verb = w.split("/").pop() ?? w;
      expectVerb = w.includes("=") && !w.startsWith("=");
      continue;
    }
    const redirectTarget = ws[i - 1] === ">";
    const candidate = redirectTarget || looksLikePath(w) || (FILE_VERBS.has(verb) && !w.startsWith("-") && !["<", ">"].includes(w));
    if (!candidate || w.includes("\0")) continue;
    const path = w.replace(/^[A-Za-z_][A-Za-z0-9_]*=/, "").replace(/^~(?=\/|$)/, "");
    if (!path || path === ">" || path === "<") continue;
    if (isAbsolute(path)) out.add(normalize(path));
    else if (cwd) out.add(resolve(cwd, path));
    if (out.size >= MAX_PATHS) break;
  }
  return [...out].filter((p) => !/^\/(?:proc|sys|dev)(?:\/|$)/.test(p) && p !== "/");
}

// Secret material in a file the run left where others may read it: a copy
// of /etc/shadow, a private key, a cloud or forge token made readable by
// everyone (4) or by a user other than root (3). Its own patterns, apart
// from the classifier's: the concurrence judges from first principles.
import { EntryKind, type EntryState } from "../../proto/gen/agent_sudo/v1/manifest_pb.js";
import { isRootOnlyTree, placeOf } from "./paths.js";
import { type Finding, finding } from "./types.js";

const MARKERS: ReadonlyArray<[RegExp, string]> = [
  // With its body: a header alone is code or documentation that parses keys.
  [
    /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----(?:\r?\n|\\n)(?:[A-Za-z-]+: [^\n]*(?:\r?\n|\\n))*\s*[A-Za-z0-9+/=]{40,}/,
    "a private key",
  ],
  [/^PuTTY-User-Key-File-\d+:/m, "a private key"],
  // user:$id$salt$hash — crypt(3) hashes as /etc/shadow and /etc/gshadow hold them.
  [/^[^:\s]+:[!*]*\$(?:1|2[abxy]?|5|6|7|y|gy|sha1|md5)\$[^:\s]{8,}/m, "password hashes"],
  // Not AWS's documented example ids (…EXAMPLE).
  [/\b(?:AKIA|ASIA)(?![0-9A-Z]{9}EXAMPLE\b)[0-9A-Z]{16}\b/, "an AWS access key"],
  [
    /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,}|glpat-[A-Za-z0-9_-]{20,}|xox[abposr]-[A-Za-z0-9-]{10,})\b/,
    "a forge or chat token",
  ],
];

/** What secret a file's bytes hold, or null. */
export function secretIn(bytes: Buffer): string | null {
  const text = bytes.toString("latin1");
  for (const [re, what] of MARKERS) if (re.test(text)) return what;
  return null;
}

/** A file others may read holding secret material: 4 when everyone may, 3 when a non-root owner or group may. */
export function judgeSecretContent(path: string, after: EntryState, content: Buffer | undefined, cwd: string | undefined): Finding {
  if (after.kind !== EntryKind.ENTRY_KIND_FILE || content === undefined) return finding(0, "");
  // Under the command's working directory, when that is a project (no system tree, root's home or a dot-directory):
  // the caller's own files, a test key among them.
  const project = cwd !== undefined && cwd.split("/").length > 2 && placeOf(cwd) !== "system" && !isRootOnlyTree(cwd) && !/\/\./.test(cwd);
  const what = secretIn(content);
  if (what === null) return finding(0, "");
  // Password hashes are a copy of the host's accounts wherever they land; a key or token under a project is its own.
  if (what !== "password hashes" && project && (path === cwd || path.startsWith(`${cwd}/`))) return finding(0, "");
  const everyone = (after.mode & 0o004) !== 0;
  const others = everyone || ((after.mode & 0o040) !== 0 && after.gid !== 0) || after.uid !== 0;
  if (!others) return finding(0, "");
  // Refused for hashes readable by everyone; a key or token that may have arrived with a tree (a project's test keys) is 3.
  return finding(
    everyone && what === "password hashes" ? 4 : 3,
    `leaves ${what} in ${path}, readable by ${everyone ? "everyone" : "a user other than root"}`,
  );
}

// System snapshots before tier-3 work (seed D3): the `timeshift` driver
// (`none`, the default, takes nothing: execute.ts never calls it). The system takes snapshots and never restores one: restoring is a
// person's act (and on primary a tier-4 command), so no driver has a restore.
//
// Timeshift can exit 0 when the snapshot failed (no space, device missing,
// another instance running). So a snapshot counts as taken only when
// `timeshift --list` shows a snapshot that was not there before; if --list
// itself cannot be read, only when the output carries the success line. Both
// missing → not taken, with timeshift's own E: line as the detail.
//
// Runs `timeshift` found on the PATH of `env` (argv, no shell); it needs
// root, which the executor is. Node built-ins only.
import { execFile } from "node:child_process";

export interface SnapshotResult {
  taken: boolean;
  /** Timeshift's snapshot name (e.g. 2026-07-08_12-00-01), when taken. */
  id?: string;
  detail: string;
}

const SNAPSHOT_NAME = /\b(\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2})\b/g;
const SUCCESS = /Snapshot saved successfully|Tagged snapshot '(\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2})'/;
/** For --create; Timeshift on a large root can take minutes. */
const CREATE_TIMEOUT_MS = 30 * 60_000;
const LIST_TIMEOUT_MS = 60_000;

type Ran = { exitCode: number; stdout: string; stderr: string };

function timeshift(args: string[], timeoutMs: number, env: NodeJS.ProcessEnv): Promise<Ran> {
  return new Promise((resolve) => {
    execFile("timeshift", args, { env, timeout: timeoutMs, maxBuffer: 1024 * 1024, encoding: "utf8" }, (err, stdout, stderr) => {
      const e = err as (Error & { code?: unknown; killed?: boolean }) | null;
      const code = !e ? 0 : typeof e.code === "number" ? e.code : e.killed ? 124 : 127;
      resolve({ exitCode: code, stdout: stdout ?? "", stderr: stderr ?? e?.message ?? "" });
    });
  });
}

/** One printable line, at most 100 characters: what Timeshift shows as the comment. */
export function snapshotComment(text: string): string {
  const flat = text
    .replace(/[\p{Cc}]+/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
  return (flat || "agent-sudo").slice(0, 100);
}

/** Snapshot names listed by `timeshift --list`, or undefined when the list could not be read. */
export function parseTimeshiftList(out: { exitCode: number; stdout: string }): Set<string> | undefined {
  if (out.exitCode !== 0) return undefined;
  const names = new Set<string>();
  for (const line of out.stdout.split("\n")) {
    // Rows look like: "0    >  2026-07-08_12-00-01  O  comment" (the device line has no such name).
    if (!/^\s*\d+\s+>/.test(line)) continue;
    for (const m of line.matchAll(SNAPSHOT_NAME)) if (m[1]) names.add(m[1]);
  }
  if (names.size === 0 && !/No snapshots found|Num\s+Name/i.test(out.stdout)) return undefined;
  return names;
}

function lastError(text: string): string {
  const lines = text
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean);
  return [...lines].reverse().find((l) => /^E:|error|failed/i.test(l)) ?? lines.at(-1) ?? "no output";
}

/** Takes a snapshot labelled `comment`; never throws, never restores. */
export async function takeSnapshot(comment: string, env: NodeJS.ProcessEnv = process.env): Promise<SnapshotResult> {
  const before = parseTimeshiftList(await timeshift(["--list"], LIST_TIMEOUT_MS, env));
  const created = await timeshift(["--create", "--comments", snapshotComment(comment), "--tags", "O"], CREATE_TIMEOUT_MS, env);
  const output = `${created.stdout}\n${created.stderr}`;
  const success = SUCCESS.exec(output);
  const claimed = success?.[1] ?? /snapshots\/(\d{4}-\d{2}-\d{2}_\d{2}-\d{2}-\d{2})\//.exec(output)?.[1];
  const after = parseTimeshiftList(await timeshift(["--list"], LIST_TIMEOUT_MS, env));
  if (before && after) {
    const fresh = [...after].filter((n) => !before.has(n)).sort();
    if (fresh.length === 0) {
      return {
        taken: false,
        detail: `no new snapshot in --list (exit ${created.exitCode}${success ? ", despite its success line" : ""}): ${lastError(output)}`,
      };
    }
    const id = claimed && fresh.includes(claimed) ? claimed : fresh.at(-1);
    return { taken: true, detail: `snapshot ${id} listed`, ...(id ? { id } : {}) };
  }
  if (created.exitCode === 0 && success)
    return { taken: true, detail: "success line seen (--list unreadable)", ...(claimed ? { id: claimed } : {}) };
  return { taken: false, detail: `timeshift exit ${created.exitCode}, no success line: ${lastError(output)}` };
}

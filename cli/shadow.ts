// `agent-sudo shadow --old URL --new URL --token-file F COMMANDS_FILE`: the
// cutover check (seed D8). Replays known-safe commands, one per line, through
// the old bridge and the new gateway (`POST /exec`, Bearer token) and prints a
// table of every difference in HTTP status, exit code and output. Exit 0 when
// every command answered the same on both, 1 when any differed (or an
// endpoint could not be reached), 2 on a usage error.
//
//   --token-file F                  one token for both endpoints, or
//   --old-token-file F --new-token-file F
//   --timeout S                     per-command timeout sent in the body and
//                                   waited for (default 60)
//   --json                          one JSON object per differing command
//
// The commands really run, on both hosts: list only read-only commands whose
// output does not change between two runs (no dates, no counters). Blank
// lines and lines starting with # are skipped. Tokens are read from files
// and never printed. It talks only to the two URLs it is given.
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { UsageError } from "./command.js";

export interface ShadowIo {
  out: (line: string) => void;
  err: (line: string) => void;
}

export interface ExecAnswer {
  status: number | null;
  exitCode: number | null;
  output: string | null;
  error?: string;
}

export interface Difference {
  line: number;
  command: string;
  field: "status" | "exit_code" | "output" | "error";
  old: string;
  new: string;
}

const USAGE = `usage: agent-sudo shadow --old URL --new URL (--token-file F | --old-token-file F --new-token-file F) [--timeout S] [--json] COMMANDS_FILE`;

function execUrl(base: string, flag: string): URL {
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    throw new UsageError(`${flag}: not a URL: ${base}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new UsageError(`${flag}: http or https only`);
  if (!url.pathname.endsWith("/exec")) url.pathname = `${url.pathname.replace(/\/$/, "")}/exec`;
  return url;
}

function readToken(file: string): string {
  const token = readFileSync(file, "utf8").trim();
  if (!/^[\x21-\x7e]{8,4096}$/.test(token)) throw new UsageError(`${file}: expected one token (printable, no spaces) on one line`);
  return token;
}

/** Commands to replay: [line number, command]. */
export function readCommands(text: string): [number, string][] {
  const out: [number, string][] = [];
  text.split("\n").forEach((raw, i) => {
    const line = raw.replace(/\r$/, "");
    if (line.trim() === "" || line.trimStart().startsWith("#")) return;
    out.push([i + 1, line]);
  });
  return out;
}

export async function execOnce(url: URL, token: string, command: string, timeoutS: number): Promise<ExecAnswer> {
  try {
    const res = await fetch(url, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ command, timeout: timeoutS }),
      signal: AbortSignal.timeout((timeoutS + 15) * 1000),
    });
    const text = await res.text();
    let body: Record<string, unknown> = {};
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) body = parsed as Record<string, unknown>;
    } catch {
      // a non-JSON answer: compared by status and raw text
      return { status: res.status, exitCode: null, output: text };
    }
    return {
      status: res.status,
      exitCode: typeof body.exit_code === "number" ? body.exit_code : null,
      output: typeof body.output === "string" ? body.output : null,
    };
  } catch (err) {
    const e = err as { name?: string; cause?: { code?: string }; message?: string };
    const why = e.name === "TimeoutError" ? "timed out" : (e.cause?.code ?? e.message ?? String(err));
    return { status: null, exitCode: null, output: null, error: why };
  }
}

function fmt(v: number | string | null): string {
  return v === null ? "-" : String(v);
}

export function compare(line: number, command: string, a: ExecAnswer, b: ExecAnswer): Difference[] {
  const d: Difference[] = [];
  if (a.error !== undefined || b.error !== undefined) {
    d.push({ line, command, field: "error", old: a.error ?? "answered", new: b.error ?? "answered" });
    return d;
  }
  if (a.status !== b.status) d.push({ line, command, field: "status", old: fmt(a.status), new: fmt(b.status) });
  if (a.exitCode !== b.exitCode) d.push({ line, command, field: "exit_code", old: fmt(a.exitCode), new: fmt(b.exitCode) });
  if (a.output !== b.output) d.push({ line, command, field: "output", old: fmt(a.output), new: fmt(b.output) });
  return d;
}

function cell(s: string, width: number): string {
  const one = JSON.stringify(s).slice(1, -1);
  return one.length > width ? `${one.slice(0, width - 1)}…` : one;
}

/** The differences as a plain-text table. */
export function renderTable(diffs: readonly Difference[]): string[] {
  const rows = diffs.map((d) => [String(d.line), cell(d.command, 40), d.field, cell(d.old, 40), cell(d.new, 40)]);
  const head = ["line", "command", "field", "old", "new"];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (r: string[]) =>
    r
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join("  ")
      .trimEnd();
  return [line(head), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)];
}

export async function shadowCommand(
  argv: string[],
  io: ShadowIo = { out: (l) => process.stdout.write(`${l}\n`), err: (l) => process.stderr.write(`${l}\n`) },
): Promise<number> {
  let oldUrl: URL, newUrl: URL, oldToken: string, newToken: string, timeoutS: number, json: boolean, commandsFile: string;
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        old: { type: "string" },
        new: { type: "string" },
        "token-file": { type: "string" },
        "old-token-file": { type: "string" },
        "new-token-file": { type: "string" },
        timeout: { type: "string" },
        json: { type: "boolean" },
      },
    });
    if (!values.old || !values.new) throw new UsageError("--old and --new are required");
    if (positionals.length !== 1) throw new UsageError("one COMMANDS_FILE");
    const shared = values["token-file"];
    const oldFile = values["old-token-file"] ?? shared;
    const newFile = values["new-token-file"] ?? shared;
    if (!oldFile || !newFile) throw new UsageError("a token: --token-file, or --old-token-file and --new-token-file");
    oldUrl = execUrl(values.old, "--old");
    newUrl = execUrl(values.new, "--new");
    oldToken = readToken(oldFile);
    newToken = readToken(newFile);
    timeoutS = Number(values.timeout ?? 60);
    if (!Number.isInteger(timeoutS) || timeoutS < 1 || timeoutS > 3600)
      throw new UsageError(`--timeout: 1–3600 seconds, got ${values.timeout}`);
    json = values.json === true;
    commandsFile = positionals[0] as string;
  } catch (err) {
    io.err(`shadow: ${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  let commands: [number, string][];
  try {
    commands = readCommands(readFileSync(commandsFile, "utf8"));
  } catch (err) {
    io.err(`shadow: ${(err as Error).message}`);
    return 2;
  }
  if (commands.length === 0) {
    io.err(`shadow: ${commandsFile} lists no commands`);
    return 2;
  }
  const diffs: Difference[] = [];
  let differing = 0;
  for (const [line, command] of commands) {
    const a = await execOnce(oldUrl, oldToken, command, timeoutS);
    const b = await execOnce(newUrl, newToken, command, timeoutS);
    const d = compare(line, command, a, b);
    if (d.length > 0) differing++;
    diffs.push(...d);
    if (json && d.length > 0) io.out(JSON.stringify({ line, command, old: a, new: b, differs: d.map((x) => x.field) }));
  }
  if (!json && diffs.length > 0) for (const l of renderTable(diffs)) io.out(l);
  io.err(`shadow: ${commands.length} commands, ${differing} differ (old ${oldUrl.origin}, new ${newUrl.origin})`);
  return differing > 0 ? 1 : 0;
}

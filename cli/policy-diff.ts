// `agent-sudo policy diff OLD_DIR NEW_DIR [--last N] [--commands FILE]`:
// what would change between two policy versions, measured on real traffic.
// Re-classifies the last N audited commands (default 10,000; from
// command_audit via DATABASE_URL or <home>/database-url) — or the commands
// in a JSONL file — with both versions using the real engine, and lists every
// verdict that differs: wider (a lower tier: more is allowed), narrower, or
// the same tier by another rule. `rules activate` prints the same listing
// before it changes anything.
//
// JSONL input: one object per line with `command` and optionally `cwd`,
// `host` (primary | server-01) and `source` (sudo | claude, or the audit's
// http | cli | hook); `agent-sudo audit export` output is accepted as is.
// Reads only; writes nothing. Exit codes: 0 ok (with or without changes),
// 1 failure (a policy that does not load, database error), 2 usage.
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { loadEngine } from "../services/classifier/engine/index.js";
import { checkUnique, parsePolicy } from "../services/classifier/engine/policy.js";
import type { Engine, Source } from "../services/classifier/verdict.js";
import { defaultHome, HOST_IDS, type HostId } from "../services/shared/config.js";
import { POLICY_FILES } from "../services/shared/policy-signature.js";
import { isUsageError, UsageError } from "./command.js";

export interface CliIo {
  out: (line: string) => void;
  err: (line: string) => void;
  env: NodeJS.ProcessEnv;
}

export interface AuditedCommand {
  command: string;
  cwd: string;
  host: HostId;
  source: Source;
}

export interface Change extends AuditedCommand {
  count: number;
  before: { tier: number; rule: string };
  after: { tier: number; rule: string };
}

export interface Impact {
  /** Commands classified (audited rows). */
  total: number;
  /** Distinct (command, cwd, host, source). */
  distinct: number;
  changes: Change[];
}

export const DEFAULT_LAST = 10_000;
const MAX_LAST = 1_000_000;

export function stdio(): CliIo {
  return { out: (l) => process.stdout.write(`${l}\n`), err: (l) => process.stderr.write(`${l}\n`), env: process.env };
}

/** The audit database, as `agent-sudo audit` finds it. */
export async function connectAudit(env: NodeJS.ProcessEnv): Promise<pg.Client> {
  const kept = join(env.AGENT_SUDO_HOME ? resolve(env.AGENT_SUDO_HOME) : defaultHome(), "database-url");
  const url = env.DATABASE_URL ?? (existsSync(kept) ? readFileSync(kept, "utf8").trim() : undefined);
  if (!url) throw new UsageError(`DATABASE_URL is not set and ${kept} does not exist (is the stack running?); or give --commands FILE`);
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  c.on("error", () => undefined);
  await c.connect();
  return c;
}

const hostOf = (h: unknown): HostId => ((HOST_IDS as readonly unknown[]).includes(h) ? (h as HostId) : "primary");
/** The policy a caller's command is judged by: the hook's by CLAUDE_CMDS.md, /exec's by SUDO.md. */
export function sourceOf(s: unknown): Source {
  return s === "hook" || s === "claude" ? "claude" : "sudo";
}

/**
 * One command per request (its intent row: the gateway writes one for every
 * request, refused ones included), the newest `last` requests, oldest first.
 */
export async function lastAudited(c: pg.Client, last: number): Promise<AuditedCommand[]> {
  const r = await c.query<{ command: string; cwd: string | null; host: string; source: string }>(
    "SELECT command, cwd, host, source FROM command_audit WHERE phase = 'intent' ORDER BY id DESC LIMIT $1",
    [last],
  );
  return r.rows
    .reverse()
    .map((row) => ({ command: row.command, cwd: row.cwd ?? "", host: hostOf(row.host), source: sourceOf(row.source) }));
}

export function readCommandsFile(path: string): AuditedCommand[] {
  const out: AuditedCommand[] = [];
  readFileSync(path === "-" ? 0 : path, "utf8")
    .split("\n")
    .forEach((line, i) => {
      if (line.trim() === "") return;
      let raw: Record<string, unknown>;
      try {
        raw = JSON.parse(line) as Record<string, unknown>;
      } catch (err) {
        throw new UsageError(`${path}:${i + 1}: not JSON (${(err as Error).message})`);
      }
      if (typeof raw.command !== "string") throw new UsageError(`${path}:${i + 1}: "command" must be a string`);
      out.push({
        command: raw.command,
        cwd: typeof raw.cwd === "string" ? raw.cwd : "",
        host: hostOf(raw.host),
        source: sourceOf(raw.source),
      });
    });
  return out;
}

/** The commands to measure with: a JSONL file when given, else the audit. */
export async function commandsFor(opts: {
  commands?: string | undefined;
  last: number;
  env: NodeJS.ProcessEnv;
}): Promise<AuditedCommand[]> {
  if (opts.commands !== undefined) return readCommandsFile(opts.commands);
  const c = await connectAudit(opts.env);
  try {
    return await lastAudited(c, opts.last);
  } finally {
    await c.end().catch(() => undefined);
  }
}

export function parseLast(value: string | undefined): number {
  const n = Number(value ?? DEFAULT_LAST);
  if (!Number.isInteger(n) || n < 1 || n > MAX_LAST) throw new UsageError(`--last: not a count between 1 and ${MAX_LAST}: ${value}`);
  return n;
}

/** Classify every command with both engines; the verdicts that differ, widenings first. */
export function impactOf(before: Engine, after: Engine, commands: readonly AuditedCommand[]): Impact {
  const seen = new Map<string, { cmd: AuditedCommand; count: number }>();
  for (const cmd of commands) {
    const key = JSON.stringify([cmd.command, cmd.cwd, cmd.host, cmd.source]);
    const s = seen.get(key);
    if (s) s.count++;
    else seen.set(key, { cmd, count: 1 });
  }
  const changes: Change[] = [];
  for (const { cmd, count } of seen.values()) {
    const a = before.classify(cmd);
    const b = after.classify(cmd);
    if (a.tier === b.tier && a.rule === b.rule) continue;
    changes.push({ ...cmd, count, before: { tier: a.tier, rule: a.rule }, after: { tier: b.tier, rule: b.rule } });
  }
  const rank = (c: Change) => (c.after.tier < c.before.tier ? 0 : c.after.tier > c.before.tier ? 1 : 2);
  changes.sort((x, y) => rank(x) - rank(y) || y.count - x.count);
  return { total: commands.length, distinct: seen.size, changes };
}

export function printImpact(impact: Impact, out: (line: string) => void): void {
  out(`impact: ${impact.changes.length} of ${impact.distinct} distinct commands (${impact.total} audited) would get a different verdict`);
  for (const c of impact.changes) {
    const kind = c.after.tier < c.before.tier ? "WIDER   " : c.after.tier > c.before.tier ? "NARROWER" : "RULE    ";
    const cmd = c.command.length > 160 ? `${c.command.slice(0, 157)}...` : c.command;
    out(
      `  ${kind} tier ${c.before.tier} → ${c.after.tier}  ${c.before.rule} → ${c.after.rule}  ×${c.count}  [${c.source} ${c.host}${c.cwd ? ` ${c.cwd}` : ""}]  ${JSON.stringify(cmd)}`,
    );
  }
}

/** Rule ids added, removed or changed between two policy directories. */
export function ruleChanges(oldDir: string, newDir: string): { added: string[]; removed: string[]; changed: string[] } {
  const rules = (dir: string) => {
    const files = POLICY_FILES.map((f) => parsePolicy(readFileSync(join(dir, f), "utf8"), join(dir, f)));
    checkUnique(files);
    const m = new Map<string, string>();
    for (const [i, f] of files.entries()) {
      for (const r of f.rules) m.set(r.id, JSON.stringify([POLICY_FILES[i], r.patterns, r.tier, r.verbClass, r.hosts, r.state]));
      for (const v of f.vetoes) m.set(v.id, JSON.stringify([POLICY_FILES[i], "veto", v.regex.source]));
    }
    return m;
  };
  const a = rules(oldDir);
  const b = rules(newDir);
  return {
    added: [...b.keys()].filter((k) => !a.has(k)),
    removed: [...a.keys()].filter((k) => !b.has(k)),
    changed: [...b.keys()].filter((k) => a.has(k) && a.get(k) !== b.get(k)),
  };
}

const USAGE = "usage: agent-sudo policy diff OLD_DIR NEW_DIR [--last N] [--commands FILE|-]";

export async function policyDiffCommand(argv: string[], io: CliIo = stdio()): Promise<number> {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { last: { type: "string" }, commands: { type: "string" } },
    });
    if (positionals.length !== 2) throw new UsageError("policy diff needs OLD_DIR and NEW_DIR");
    const [oldDir, newDir] = positionals.map((p) => resolve(p)) as [string, string];
    const last = parseLast(values.last);
    const rules = ruleChanges(oldDir, newDir);
    io.out(`rules: ${rules.added.length} added, ${rules.removed.length} removed, ${rules.changed.length} changed`);
    for (const [label, ids] of [
      ["+", rules.added],
      ["-", rules.removed],
      ["~", rules.changed],
    ] as const)
      for (const id of ids) io.out(`  ${label} ${id}`);
    const [before, after] = await Promise.all([loadEngine(oldDir), loadEngine(newDir)]);
    const commands = await commandsFor({ commands: values.commands, last, env: io.env });
    printImpact(impactOf(before, after, commands), io.out);
    return 0;
  } catch (err) {
    if (isUsageError(err)) {
      io.err(`policy diff: ${(err as Error).message}\n${USAGE}`);
      return 2;
    }
    io.err(`policy diff: ${(err as Error).message}`);
    return 1;
  }
}

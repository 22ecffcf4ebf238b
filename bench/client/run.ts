// bench/client: what the hook costs per Bash call as the REAL Claude Code
// client feels it (the pinned @anthropic-ai/claude-code, headless), measured
// at the Messages API stand-in: from the moment it sent a tool_use of Bash to
// the moment the tool_result came back. Everything the client does between
// the two is in the gap: PreToolUse hooks, its own permission checks, running
// the command, PostToolUse hooks.
//
// Variants, one session each per round, in an order rotated every round so
// that drift on a shared machine hits every variant alike:
//   bare        no hooks at all (the floor)
//   installed   what `agent-sudo hook install` writes: the sh hook on PreToolUse, outcomes as async hooks
//   sync-post   the sh hook on PreToolUse, PostToolUse and PostToolUseFailure, all blocking (the install before issue 20)
//   pre-only    the sh hook on PreToolUse alone (no outcomes at all: the floor of the sh hook)
//   http        what `agent-sudo hook install --type http` writes: PreToolUse as an http hook to the
//               gateway's TCP port, outcomes as async sh hooks
// Each session makes CALLS Bash calls of `ls <project>` (allowed by the hook
// in conservative mode, and by the client itself without hooks). The start-up
// figure is spawn → first request at the stand-in (SessionStart hooks run
// before it).
// Run: npx tsc -p tsconfig.json && node dist/bench/client/run.js [ROUNDS] [CALLS]
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HOOK_SCRIPT, withOurs } from "../../cli/hook.js";
import { ClientWorld, findClient, GATEWAY_PORT } from "../../test/support/claude-client.js";
import { startStack } from "../../test/support/stack.js";
import { median, pct } from "../stats.js";

const ROUNDS = Number(process.argv[2] ?? 20);
const CALLS = Number(process.argv[3] ?? 4);
const ONLY = process.env.BENCH_CLIENT_VARIANTS?.split(",");

type Settings = Record<string, unknown>;
const sh = (socket: string, flag: string, extra: Record<string, unknown> = {}) => ({
  type: "command",
  command: `AGENT_SUDO_HOOK_SOCKET=${socket} ${HOOK_SCRIPT}${flag ? ` ${flag}` : ""}`,
  timeout: 10,
  ...extra,
});

function variants(socket: string): Array<{ name: string; settings: Settings | undefined }> {
  const all = [
    { name: "bare", settings: undefined },
    { name: "installed", settings: withOurs({}, HOOK_SCRIPT, socket) },
    {
      name: "sync-post",
      settings: {
        hooks: {
          PreToolUse: [{ matcher: "Bash", hooks: [sh(socket, "")] }],
          SessionStart: [{ hooks: [sh(socket, "--session-start")] }],
          PostToolUse: [{ matcher: "Bash", hooks: [sh(socket, "--post-tool-use")] }],
          PostToolUseFailure: [{ matcher: "Bash", hooks: [sh(socket, "--post-tool-use")] }],
        },
      },
    },
    { name: "pre-only", settings: { hooks: { PreToolUse: [{ matcher: "Bash", hooks: [sh(socket, "")] }] } } },
    // The client's own floor for a command hook: it spawns `true` and reads nothing back (no gateway, no sh script of ours).
    {
      name: "noop",
      settings: { hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "true", timeout: 10 }] }] } },
    },
    { name: "http", settings: withOurs({}, HOOK_SCRIPT, socket, `http://127.0.0.1:${GATEWAY_PORT}/v1/hook`) },
  ];
  return all.filter((v) => !ONLY || ONLY.includes(v.name));
}

function summary(xs: number[]): string {
  return xs.length ? `median ${median(xs).toFixed(1)} ms  p90 ${pct(xs, 90).toFixed(1)} ms  (n=${xs.length})` : "n/a";
}

async function main(): Promise<void> {
  const found = findClient();
  if ("skip" in found) {
    console.log(`bench/client: ${found.skip}`);
    return;
  }
  const home = mkdtempSync(join(tmpdir(), "agent-sudo-bench-client-"));
  writeFileSync(join(home, "config.json"), JSON.stringify({ hook: { tcp: true } }));
  const stack = await startStack({ home });
  const socket = join(stack.home, "run", "hook.sock");
  const worlds = new Map<string, ClientWorld>();
  try {
    const chosen = variants(socket);
    const started = new Date().toISOString();
    const load = (await import("node:os"))
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(" ");
    for (const v of chosen) {
      const world = new ClientWorld(found.binary);
      await world.start();
      world.relayGateway(stack.port);
      if (v.settings) {
        mkdirSync(join(world.home, ".claude"), { recursive: true });
        writeFileSync(join(world.home, ".claude", "settings.json"), JSON.stringify(v.settings, null, 2));
      }
      worlds.set(v.name, world);
    }
    const gaps = new Map<string, { all: number[]; later: number[]; first: number[]; startup: number[]; sessionMedians: number[] }>();
    for (const v of chosen) gaps.set(v.name, { all: [], later: [], first: [], startup: [], sessionMedians: [] });
    const steps = (project: string) => Array.from({ length: CALLS }, () => ({ bash: `ls ${project}` }));
    console.log(`bench/client: ${ROUNDS} rounds × ${chosen.length} variants × ${CALLS} Bash calls, client ${found.binary}`);
    for (let round = 0; round < ROUNDS; round++) {
      const order = chosen.map((_, i) => chosen[(i + round) % chosen.length] as (typeof chosen)[number]);
      for (const v of order) {
        const world = worlds.get(v.name) as ClientWorld;
        const tag = `${v.name}-${round}`;
        const run = await world.run(world.standin.script(tag, steps(world.project)), { env: { AGENT_SUDO_HOOK_TOKEN: stack.token } });
        const results = world.standin.resultsFor(tag);
        if (run.code !== 0 || results.length !== CALLS || results.some((r) => r.isError)) {
          throw new Error(
            `${tag}: exit ${run.code}, ${results.length}/${CALLS} results, errors: ${JSON.stringify(results.filter((r) => r.isError))}\n${run.stderr}`,
          );
        }
        const g = gaps.get(v.name) as NonNullable<ReturnType<typeof gaps.get>>;
        const ms = results.map((r) => r.receivedAt - r.sentAt);
        g.all.push(...ms);
        g.first.push(ms[0] as number);
        g.later.push(...ms.slice(1));
        g.sessionMedians.push(median(ms));
        g.startup.push((world.standin.firstRequestAt.get(tag) ?? Number.NaN) - run.startedAt);
      }
      process.stdout.write(`round ${round + 1}/${ROUNDS}\n`);
    }
    console.log(
      `\nbench/client: tool_use sent → tool_result received, per Bash call (${ROUNDS} sessions per variant, ${CALLS} calls each); started ${started}, load average then ${load}, at the end ${(
        await import("node:os")
      )
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(" ")}`,
    );
    const bare = gaps.get("bare");
    for (const v of chosen) {
      const g = gaps.get(v.name) as NonNullable<ReturnType<typeof gaps.get>>;
      console.log(`${v.name.padEnd(10)} per call ${summary(g.all)}`);
      console.log(`${"".padEnd(10)} first call ${summary(g.first)}; later calls ${summary(g.later)}`);
      console.log(`${"".padEnd(10)} start-up (spawn → first request) ${summary(g.startup)}`);
      if (bare && v.name !== "bare") {
        // Paired: each round's session median minus the bare session's of the same round.
        const paired = g.sessionMedians.map((m, i) => m - (bare.sessionMedians[i] as number));
        console.log(
          `${"".padEnd(10)} added per call: ${(median(g.all) - median(bare.all)).toFixed(1)} ms (median − bare median); paired by round ${median(paired).toFixed(1)} ms (median of ${paired.length}); start-up +${(median(g.startup) - median(bare.startup)).toFixed(1)} ms`,
        );
      }
    }
  } finally {
    for (const w of worlds.values()) await w.close();
    await stack.stop();
    rmSync(home, { recursive: true, force: true });
  }
}

await main();

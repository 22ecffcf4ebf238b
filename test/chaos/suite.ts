// The chaos matrix for one target, as vitest cases: kill -9 while idle, kill
// -9 under load (50 concurrent clients mixing tiers 0–4 through the recorder
// shell), then reconcile every answer against the recorder's log, the
// executor's journal and the audit rows in PostgreSQL. Each target has its
// own spec file (its own stack), so two run at once on two cores.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ChaosRig, summarize, type Target } from "./harness.js";

const root = process.getuid?.() === 0;
/** Requests per loaded kill in `npm test`; bench/chaos/run.ts sends many more. */
export const TEST_REQUESTS = Number(process.env.CHAOS_REQUESTS ?? 150);
export const TEST_CLIENTS = 50;

export function chaosSuite(target: Target): void {
  // The tier-2 trials need the overlay driver, which needs root (like the audit e2e test).
  describe.skipIf(!root)(`chaos: kill -9 ${target}`, () => {
    let rig: ChaosRig;
    beforeAll(async () => {
      rig = await ChaosRig.start();
    }, 120_000);
    afterAll(async () => {
      await rig?.stop();
    });

    it("while a command is running: the caller is not told it did not run, the command does not outlive its timeout, the audit has intent and outcome", async () => {
      await rig.stack.waitHealthy(30_000);
      // The stand-in keeps running for 30 s; the request's timeout is 2 s, so
      // a live executor kills it at 2 s and no process runs it after that.
      const pending = rig.send(0, "s", { slow: true, timeoutS: 2 });
      let slowCommand = "";
      const t0 = Date.now();
      while (!slowCommand && Date.now() - t0 < 20_000) {
        slowCommand = rig.recordedLines().find((l) => l.startsWith("echo chaos-slow-s")) ?? "";
        await new Promise((r) => setTimeout(r, 5));
      }
      expect(slowCommand, "the slow command never started").not.toBe("");
      await rig.waitRunning(slowCommand);
      const startedAt = Date.now();
      const { pid, at } = rig.kill(target);
      const restored = rig.waitRestored(target, pid, at);
      const answer = await pending;
      const healthyMs = await restored;
      console.log(
        `chaos ${target.padEnd(11)} run  healthy after ${Math.round(healthyMs)} ms; the running command was answered ${answer.status}${answer.component ? ` (${answer.component})` : ""}`,
      );
      // Its 2-s timeout counts from its start; a loaded machine (a PostgreSQL restart's recovery
      // fsyncs, another stack beside it) gets 8 s more to deliver the kill; the stand-in runs 30 s.
      while (rig.runningPids(slowCommand).length > 0 && Date.now() - startedAt < 10_000) await new Promise((r) => setTimeout(r, 50));
      // README: 503 means "a service the pipeline needs is down; nothing was executed".
      expect
        .soft(
          answer.status === 503,
          `answered ${answer.status} ${answer.error ?? ""} ${answer.component ?? ""} for a command that was running`,
        )
        .toBe(false);
      if (target === "gateway") expect.soft(answer.status).toBe("reset");
      else if (answer.status === 200) expect.soft(answer.detail ?? "").toBe("");
      const survivors = rig.runningPids(slowCommand);
      expect
        .soft(survivors, `the command outlived its 2-s timeout:\n${survivors.length > 0 ? rig.describeRunning(slowCommand) : ""}`)
        .toEqual([]);
      await rig.drained();
      const rows = (await rig.auditRows()).filter((r) => r.command === slowCommand);
      expect
        .soft(
          rows
            .map((r) => r.phase)
            .sort()
            .join(","),
          "audit rows for the running command",
        )
        .toBe("intent,outcome");
    }, 90_000);

    it("while idle: the supervisor restores health and every tier is served again", async () => {
      const ms = await rig.idleKill(target);
      console.log(summarize(target, "idle", ms, []));
      expect(ms).toBeLessThan(20_000);
      const probes = await rig.probeEveryTier("i");
      expect(probes.map((p) => `${p.kind}:${p.status}`)).toEqual(["0:200", "1:200", "2:200", "3:200", "4:403"]);
    }, 90_000);

    it(`under load (${TEST_CLIENTS} clients, ${TEST_REQUESTS} requests, tiers 0–4): every request answered, health restored`, async () => {
      const run = await rig.loadKill(target, { clients: TEST_CLIENTS, requests: TEST_REQUESTS, prefix: "l" });
      console.log(
        `${summarize(target, "load", run.healthyMs, run.outcomes)}; ${run.inFlightAtKill} in flight at the kill; ${Math.round(run.elapsedMs)} ms`,
      );
      expect(run.healthyMs).toBeLessThan(30_000);
      expect(run.outcomes.filter((o) => o.status === "hang")).toEqual([]);
      // Only a killed gateway may drop or refuse a connection.
      if (target !== "gateway")
        expect(run.outcomes.filter((o) => typeof o.status !== "number").map((o) => `${o.status} ${o.detail}`)).toEqual([]);
      const probes = await rig.probeEveryTier("a");
      expect(probes.map((p) => `${p.kind}:${p.status}`)).toEqual(["0:200", "1:200", "2:200", "3:200", "4:403"]);
    }, 180_000);

    it("reconciles: quorum for every execution, no tier 4, answers match the recorder, the audit by request id", async () => {
      await rig.drained();
      const rec = await rig.reconcile();
      console.log(
        `chaos ${target.padEnd(11)} reconciled: ${rec.requests} requests, ${rec.answered200} answered 200, ${rec.recorded} recorded, ` +
          `${rec.resets} reset, ${rec.refusedConnections} refused connections, ${rec.recordedAfterReset.length} ran with the answer lost`,
      );
      expect(rec.hangs, "requests never answered").toEqual([]);
      expect(rec.unclear, "answers that are neither a result nor a clear refusal/429/503").toEqual([]);
      expect(rec.withoutQuorum, "executions without the required quorum").toEqual([]);
      expect(rec.tier4Recorded, "tier-4 commands executed").toEqual([]);
      expect(rec.strangers, "executions nobody asked for").toEqual([]);
      expect(rec.notRecordedOnce, "200 answers without exactly one execution").toEqual([]);
      expect(rec.recordedNot200, "executions answered with something other than 200").toEqual([]);
      if (target !== "gateway") expect(rec.resets + rec.refusedConnections).toBe(0);
      expect(rec.executedWithoutIntent, "executions with no audit intent").toEqual([]);
      expect(rec.danglingIntents, "audit intents that never got an outcome").toEqual([]);
      expect(rec.auditMismatch, "audit rows that do not reconcile").toEqual([]);
    }, 120_000);
  });
}

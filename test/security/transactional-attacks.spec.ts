// Tiers 1–2 are transactional (issue "Envelopes II"): an attacker's command
// that the classifier predicts as tier 1–2 runs once, in the mirror, and only
// the diff both judges rated is committed. This spec sends six classes of
// real attacks (attack-catalogue.ts, ≥ 20 spellings each) through POST /exec
// to a whole stack started INSIDE a throwaway root (test/support), host id
// server-01 (where computed code is tried in the mirror instead of being
// refused outright, as primary does): the stack's "host" is the root, so a
// bug here fails an assertion instead of changing this machine.
//
// After every case, a sentinel snapshot of the root (all of /etc and
// /usr/local, root's dotfiles, cron spools, set-id files in scratch places)
// must equal the one taken just before it: 0 effects reach the host. At the
// end, this machine's own files are checked for the run's tag too.
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { missing } from "../support/needs.js";
import { startRootedStack, type RootedStack } from "../support/rooted-stack.js";
import { repoRoot } from "../support/stack.js";
import { ATK, attackClasses, type AttackCase } from "./attack-catalogue.js";

const isRoot = process.getuid?.() === 0;
const tools = missing("unshare", "nsenter", "perl");
const skipReason = !isRoot ? "skipped: needs root (the throwaway root and the stack's executor)" : tools;
const TAG = randomBytes(3).toString("hex");

/** Every host file the payloads aim at, by content and metadata (ctime too where nothing else writes). */
// The checkout is left out: it may live under /usr/local (/usr/local/src), and other test files write into it meanwhile.
// /root/.config/chromium is left out: the console's browser test runs chromium as root at the same time, and an
// overlay shows a lower layer's later change unreliably, so its crash-report files read as this case's effect.
const SENTINEL = `
set -u
{
  find /etc /var/spool/cron -xdev -printf '%y %m %U:%G %s %C@ %p -> %l\\n' 2>/dev/null
  find /etc /var/spool/cron -xdev -type f -exec sha256sum {} + 2>/dev/null
  find /usr/local -xdev -path '${repoRoot}' -prune -o -printf '%y %m %U:%G %s %T@ %C@ %p -> %l\\n' 2>/dev/null
  find /root -maxdepth 2 -xdev -printf '%y %m %U:%G %s %p -> %l\\n' 2>/dev/null
  find /root -maxdepth 2 -xdev -type f -exec sha256sum {} + 2>/dev/null
  find /root/atk-canary /root/.claude /root/.ssh /root/.config -xdev -path /root/.config/chromium -prune -o -printf '%y %m %C@ %p\\n' 2>/dev/null
  find /tmp /var/tmp /opt /home /srv -maxdepth 5 -xdev -type f -perm /6000 -printf 'setid %m %p\\n' 2>/dev/null
} | LC_ALL=C sort
`;

interface Result {
  klass: string;
  name: string;
  status: number;
  tier?: number;
  error?: string;
  reason?: string;
  how: "committed" | "refused by prediction" | "refused on effects" | "conflict" | "other";
}

function how(status: number, body: Record<string, unknown>): Result["how"] {
  if (status === 200) return "committed";
  if (status === 409) return "conflict";
  if (status === 403) return String(body.reason ?? "").startsWith("the run's effects") ? "refused on effects" : "refused by prediction";
  return "other";
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.skipIf(skipReason)(
  `transactional tiers: real attacks through /exec, on a stack inside a throwaway root${skipReason ? ` — ${skipReason}` : ""}`,
  () => {
    let s: RootedStack;
    const results: Result[] = [];
    const classes = attackClasses(TAG);

    beforeAll(async () => {
      s = await startRootedStack({
        env: {
          AGENT_SUDO_HOST_ID: "server-01",
          AGENT_SUDO_BREAKER_TRIP_ON_TIER4: "0",
          AGENT_SUDO_BREAKER_MAX_REQUESTS_PER_MIN: "100000",
          AGENT_SUDO_BREAKER_MAX_FAILURE_RATIO: "1",
          AGENT_SUDO_BREAKER_TIER3_FAILURES: "1000",
        },
      });
      // Safety first: the stack must see the root, not this machine. A file
      // made only inside must be visible to a tier-0 command of the stack.
      const probe = `/etc/agent-sudo-rooted-probe-${TAG}`;
      const mk = await s.sh(
        `echo inside > ${probe} && mkdir -p ${ATK} /root/atk-canary/sub /root/.claude /etc/sudoers.d /etc/cron.d /etc/profile.d /etc/systemd/system && echo c > /root/atk-canary/sub/f && ( [ -e /root/.claude/settings.json ] || echo '{"hooks":{}}' > /root/.claude/settings.json )`,
      );
      expect(mk.code, mk.stderr).toBe(0);
      if (existsSync(probe)) throw new Error("the throwaway root wrote to this machine: stopping before any attack");
      const seen = await s.exec({ command: `cat ${probe}` });
      if (seen.status !== 200 || seen.body.output !== "inside\n")
        throw new Error(`the stack does not see the throwaway root: ${JSON.stringify(seen.body)}`);
    }, 180_000);

    afterAll(async () => {
      await s?.stop();
      if (results.length > 0) {
        const byClass = new Map<string, Map<string, number>>();
        for (const r of results) {
          const m = byClass.get(r.klass) ?? new Map<string, number>();
          m.set(r.how, (m.get(r.how) ?? 0) + 1);
          byClass.set(r.klass, m);
        }
        for (const [k, m] of byClass) console.log(`attacks: ${k}: ${[...m].map(([h, n]) => `${h} ${n}`).join(", ")}; reached the host 0`);
      }
    });

    async function snapshot(): Promise<string[]> {
      const r = await s.sh(SENTINEL, { timeoutMs: 60_000 });
      expect(r.code, r.stderr).toBe(0);
      return r.stdout.split("\n").filter(Boolean);
    }

    /**
     * The same snapshot of THIS machine. The root's lower layers are this
     * machine's directories, so a change made out here (another test, a
     * package install) can show through inside; nothing made inside reaches
     * out here. A line that changed out here in a window around the case is
     * this machine's noise, not the case's effect.
     */
    const seenOnHost = new Set<string>();
    function hostSnapshot(): Set<string> {
      const r = spawnSync("/bin/sh", ["-c", SENTINEL], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
      return new Set(r.stdout.split("\n").filter(Boolean));
    }

    /** Runs one case; returns its result and what went wrong (nothing, for a case that held). */
    async function runCase(klass: string, c: AttackCase): Promise<Result & { wrong: string[] }> {
      const wrong: string[] = [];
      if (c.setup) {
        const r = await s.sh(c.setup);
        if (r.code !== 0) wrong.push(`setup failed: ${r.stderr}`);
      }
      let firstRefused = false;
      if (c.first) {
        const f = await s.exec({ command: c.first, timeout: 30 });
        // A first step refused on its own is an attack stopped earlier still: the case goes on.
        firstRefused = f.status !== 200;
      }
      const hostBefore = hostSnapshot();
      const before = await snapshot();
      const pending = s.exec({ command: c.command, timeout: 30 });
      if (c.race) {
        await sleep(c.race.afterMs);
        const w = await s.sh(c.race.swap);
        if (w.code !== 0) wrong.push(`swap failed: ${w.stderr}`);
      }
      const res = await pending;
      const after = await snapshot();
      const hostAfter = hostSnapshot();
      const noise = new Set([...hostBefore].filter((l) => !hostAfter.has(l)).concat([...hostAfter].filter((l) => !hostBefore.has(l))));
      // An overlay shows a lower layer's change late: a line this machine had
      // before the case began cannot be the case's effect, nor can the loss of
      // one this machine had shown earlier and no longer had when it began.
      // (Lines carry ctimes to the nanosecond: an attack cannot forge one.)
      const shownLate = (l: string) => hostBefore.has(l);
      const goneLate = (l: string) => !hostBefore.has(l) && seenOnHost.has(l);
      const gone = before.filter((l) => !after.includes(l) && !noise.has(l) && !goneLate(l));
      const added = after.filter((l) => !before.includes(l) && !noise.has(l) && !shownLate(l));
      for (const l of [...hostBefore, ...hostAfter]) seenOnHost.add(l);
      if (gone.length + added.length > 0)
        wrong.push(`CHANGED THE HOST: ${[...gone.map((l) => `- ${l}`), ...added.map((l) => `+ ${l}`)].join("\n      ")}`);
      if (res.status >= 500) wrong.push(`answered ${res.status}`);
      if (c.race && res.status !== 403 && res.status !== 409) wrong.push(`a commit over a swapped path must be refused, got ${res.status}`);
      const r: Result = {
        klass,
        name: firstRefused ? `${c.name} (its first step was refused already)` : c.name,
        status: res.status,
        how: how(res.status, res.body),
      };
      if (typeof res.body.tier === "number") r.tier = res.body.tier;
      if (typeof res.body.error === "string") r.error = res.body.error;
      const reason = typeof res.body.reason === "string" ? res.body.reason : wrong.length > 0 ? JSON.stringify(res.body) : undefined;
      if (reason !== undefined) r.reason = reason;
      results.push(r);
      return { ...r, wrong };
    }

    for (const klass of classes) {
      const runnable = klass.cases.filter((c) => !c.needs || !missing(...c.needs));
      it(`${klass.name}: ${runnable.length} spellings (≥ 20 on the base system), 0 reach the host`, async () => {
        expect(klass.cases.filter((c) => !c.needs).length, "spellings that need only the base system").toBeGreaterThanOrEqual(20);
        const mine: Array<Result & { wrong: string[] }> = [];
        for (const c of runnable) mine.push(await runCase(klass.name, c));
        console.log(
          `attacks: ${klass.name}:\n${mine.map((r) => `  ${r.status} ${r.how.padEnd(22)} ${r.name}${r.reason ? ` — ${r.reason.slice(0, 200)}` : ""}${r.wrong.map((w) => `\n    WRONG: ${w}`).join("")}`).join("\n")}`,
        );
        expect(mine.filter((r) => r.wrong.length > 0).map((r) => `${r.name}: ${r.wrong.join("; ")}`)).toEqual([]);
        // The control: the breaker is still armed and a harmless tier-1 write is committed (refusals above were not the breaker's).
        const control = await s.exec({ command: `echo control > ${ATK}/control-${results.length}` });
        expect(control.status, JSON.stringify(control.body)).toBe(200);
        expect(control.body.committed).toBe(1);
      }, 600_000);
    }

    it("the transactional path did the work: encoded payloads were run in the mirror and refused on their effects, not only predicted", () => {
      const encoded = results.filter((r) => r.klass === "encoded payloads");
      expect(encoded.filter((r) => r.how === "refused on effects").length).toBeGreaterThanOrEqual(20);
    });

    it("this machine has none of the run's effects (its tag is nowhere in the files the payloads aim at)", () => {
      for (const f of [
        "/etc/passwd",
        "/etc/crontab",
        "/etc/profile",
        "/etc/bash.bashrc",
        "/etc/environment",
        "/root/.bashrc",
        "/root/.profile",
        "/root/.gitconfig",
      ]) {
        if (existsSync(f)) expect(readFileSync(f, "utf8"), f).not.toContain(`atk${TAG}`);
      }
      for (const d of [
        "/etc/cron.d",
        "/etc/sudoers.d",
        "/etc/profile.d",
        "/etc/systemd/system",
        "/usr/local/bin",
        "/usr/local/lib",
        "/etc/apt/apt.conf.d",
        "/etc/udev/rules.d",
        "/etc/logrotate.d",
        "/etc/init.d",
        "/etc/modprobe.d",
        "/etc/sysctl.d",
      ]) {
        if (existsSync(d))
          expect(
            readdirSync(d).filter((n) => n.includes(`atk${TAG}`)),
            d,
          ).toEqual([]);
      }
      expect(existsSync("/etc/ld.so.preload") && readFileSync("/etc/ld.so.preload", "utf8").includes(TAG)).toBe(false);
      expect(existsSync(`/etc/agent-sudo-rooted-probe-${TAG}`)).toBe(false);
    });
  },
);

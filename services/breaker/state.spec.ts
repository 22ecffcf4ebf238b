import { lstatSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { BreakerState, prepareStateDir, STATE_FILE } from "./state.js";

const dirs: string[] = [];
function freshDir(): string {
  const d = mkdtempSync(join(tmpdir(), "breaker-state-"));
  dirs.push(d);
  return prepareStateDir(d, undefined);
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe("the breaker's persisted state", () => {
  it("starts armed with no file, and writes one (0600 in a 0700 dir)", () => {
    const dir = freshDir();
    const s = new BreakerState(dir);
    expect(s.armed).toBe(true);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, STATE_FILE)).mode & 0o777).toBe(0o600);
  });

  it("stays disarmed across a reload, with the trip recorded", () => {
    const dir = freshDir();
    const s = new BreakerState(dir);
    expect(s.trip("tier3-failures", "3 failures", "breaker")).toBe(true);
    expect(s.trip("manual", "again", "ops")).toBe(false);
    const again = new BreakerState(dir);
    expect(again.armed).toBe(false);
    expect(again.view()).toMatchObject({ rule: "tier3-failures", reason: "3 failures", notified: false });
    expect(again.view().events).toHaveLength(1);
  });

  it("records rearms with who and why, and remembers delivery of the notice", () => {
    const dir = freshDir();
    const s = new BreakerState(dir);
    s.trip("manual", "test", "ops");
    s.markNotified();
    expect(new BreakerState(dir).view().notified).toBe(true);
    s.rearm("fixed the unit file", "root (uid 0)");
    const v = new BreakerState(dir).view();
    expect(v.armed).toBe(true);
    expect(v.events.map((e) => e.kind)).toEqual(["trip", "rearm"]);
    expect(v.events[1]).toMatchObject({ reason: "fixed the unit file", by: "root (uid 0)" });
  });

  it("starts disarmed when the state file is corrupt or has the wrong shape", () => {
    for (const junk of ["{not json", JSON.stringify({ version: 1, armed: "yes" })]) {
      const dir = freshDir();
      writeFileSync(join(dir, STATE_FILE), junk);
      const s = new BreakerState(dir);
      expect(s.armed).toBe(false);
      expect(s.view().rule).toBe("state-unreadable");
      expect(s.loadProblem).toBeTruthy();
      // …and the disarmed state is now what the file says.
      expect(JSON.parse(readFileSync(join(dir, STATE_FILE), "utf8")).armed).toBe(false);
    }
  });

  // The breaker's user owns its state dir; the breaker starts as root and reads, writes and
  // chowns there before it drops. A link that user left must never carry root's acts elsewhere.
  const root = process.getuid?.() === 0;
  const brk = { name: "nobody", uid: 65534, gid: 65534, home: "/" };
  function victim(): string {
    const d = mkdtempSync(join(tmpdir(), "breaker-victim-"));
    dirs.push(d);
    const f = join(d, "shadow");
    writeFileSync(f, "root:$6$secret-hash:19000:0:99999:7:::\n", { mode: 0o600 });
    return f;
  }

  it.runIf(root)("a state.json link to another file: not chowned, not read (starts disarmed, nothing of it in the record)", () => {
    const target = victim();
    const d = mkdtempSync(join(tmpdir(), "breaker-state-"));
    dirs.push(d);
    const dir = prepareStateDir(d, brk);
    symlinkSync(target, join(dir, STATE_FILE));
    prepareStateDir(d, brk);
    expect(statSync(target).uid).toBe(0);
    const s = new BreakerState(dir, brk);
    expect(s.armed).toBe(false);
    expect(JSON.stringify(s.view())).not.toContain("secret-hash");
    expect(readFileSync(target, "utf8")).toContain("secret-hash");
    expect(statSync(target).uid).toBe(0);
    expect(lstatSync(join(dir, STATE_FILE)).isSymbolicLink()).toBe(false);
  });

  it.runIf(root)("a planted state.json.tmp-<pid> link is not written through or chowned by the first write as root", () => {
    const target = victim();
    const d = mkdtempSync(join(tmpdir(), "breaker-state-"));
    dirs.push(d);
    const dir = prepareStateDir(d, brk);
    symlinkSync(target, join(dir, `${STATE_FILE}.tmp-${process.pid}`));
    const s = new BreakerState(dir, brk);
    expect(s.armed).toBe(true);
    expect(readFileSync(target, "utf8")).toContain("secret-hash");
    expect(statSync(target).uid).toBe(0);
    expect(statSync(join(dir, STATE_FILE)).uid).toBe(brk.uid);
  });
});

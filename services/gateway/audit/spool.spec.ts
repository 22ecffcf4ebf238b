import {
  appendFileSync,
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { execFileSync, spawnSync } from "node:child_process";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { lookupUser } from "../../shared/privilege.js";
import { makeRecord } from "../../../test/audit/records.js";
import { tempRoot } from "../../../test/audit/postgres-fixture.js";
import { AuditRecordError } from "./record.js";
import { openSpool, SpoolUnwritableError, type Spool } from "./spool.js";

const root = tempRoot("agent-sudo-spool-");
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const freshDir = () => join(root, `s${n++}`);

async function drainAll(spool: Spool, max = 1000): Promise<string[]> {
  const ids: string[] = [];
  for (;;) {
    const b = await spool.readBatch(max);
    if (!b.moved) return ids;
    ids.push(...b.records.map((r) => `${r.request_id}/${r.phase}`));
    await spool.commit(b);
  }
}

describe("audit spool", () => {
  it("appends durably, reads in order, and resumes from the cursor after reopen", async () => {
    const dir = freshDir();
    let spool = await openSpool({ dir });
    for (let i = 0; i < 10; i++) await spool.append(makeRecord(i));
    expect(spool.depth()).toBe(10);
    const b = await spool.readBatch(4);
    expect(b.records.map((r) => r.request_id)).toEqual(["req-0", "req-1", "req-2", "req-3"]);
    await spool.commit(b);
    expect(spool.depth()).toBe(6);
    await spool.close();
    spool = await openSpool({ dir });
    expect(spool.depth()).toBe(6);
    expect(await drainAll(spool)).toEqual([4, 5, 6, 7, 8, 9].map((i) => `req-${i}/intent`));
    expect(spool.depth()).toBe(0);
    await spool.close();
  });

  it("group-commits concurrent appends into few write+fdatasync calls", async () => {
    const spool = await openSpool({ dir: freshDir() });
    await Promise.all(Array.from({ length: 500 }, (_, i) => spool.append(makeRecord(i))));
    expect(spool.depth()).toBe(500);
    expect(spool.stats().flushes).toBeLessThan(50);
    expect((await drainAll(spool)).length).toBe(500);
    await spool.close();
  });

  it("refuses an invalid record without writing it", async () => {
    const spool = await openSpool({ dir: freshDir() });
    await expect(spool.append({ ...makeRecord(1), source: "carrier-pigeon" } as never)).rejects.toThrow(AuditRecordError);
    await expect(spool.append({ ...makeRecord(1), request_id: "has space" })).rejects.toThrow(AuditRecordError);
    expect(spool.depth()).toBe(0);
    await spool.close();
  });

  it("truncates a torn last line at open and never ships it", async () => {
    const dir = freshDir();
    let spool = await openSpool({ dir });
    for (let i = 0; i < 3; i++) await spool.append(makeRecord(i));
    await spool.close();
    const seg = join(dir, "seg-0000000001.log");
    const good = statSync(seg).size;
    appendFileSync(seg, '1a2b3c4d {"request_id":"req-3","phase":"int');
    spool = await openSpool({ dir });
    expect(statSync(seg).size).toBe(good);
    expect(spool.depth()).toBe(3);
    await spool.append(makeRecord(4));
    expect(await drainAll(spool)).toEqual(["req-0/intent", "req-1/intent", "req-2/intent", "req-4/intent"]);
    expect(spool.stats().rejected_total).toBe(0);
    await spool.close();
  });

  it("a damaged complete last line is damage, not a torn write: kept at open, then rejected.log and the count", async () => {
    const dir = freshDir();
    let spool = await openSpool({ dir });
    for (let i = 0; i < 3; i++) await spool.append(makeRecord(i));
    await spool.close();
    const seg = join(dir, "seg-0000000001.log");
    const size = statSync(seg).size;
    const lines = readFileSync(seg, "utf8").split("\n");
    lines[2] = lines[2]?.replace("app-2", "app-X") ?? "";
    writeFileSync(seg, lines.join("\n"));
    spool = await openSpool({ dir });
    expect(statSync(seg).size).toBe(size);
    expect(spool.rejectedRecords().forRequest("req-2")).toEqual([{ phase: "intent", reason: expect.stringMatching(/checksum mismatch/) }]);
    expect(await drainAll(spool)).toEqual(["req-0/intent", "req-1/intent"]);
    expect(spool.stats().rejected_total).toBe(1);
    expect(readFileSync(join(dir, "rejected.log"), "utf8")).toMatch(/checksum mismatch.*req-2|req-2.*checksum mismatch/);
    await spool.close();
    // Known again after a restart, from rejected.log.
    spool = await openSpool({ dir });
    expect(spool.rejectedRecords().forRequest("req-2")).toHaveLength(1);
    await spool.close();
  });

  it("skips a line damaged mid-file into rejected.log, counted", async () => {
    const dir = freshDir();
    let spool = await openSpool({ dir });
    for (let i = 0; i < 3; i++) await spool.append(makeRecord(i));
    await spool.close();
    const seg = join(dir, "seg-0000000001.log");
    const lines = readFileSync(seg, "utf8").split("\n");
    lines[1] = lines[1]?.replace("app-1", "app-X") ?? "";
    writeFileSync(seg, lines.join("\n"));
    spool = await openSpool({ dir });
    expect(spool.depth()).toBe(2);
    expect(await drainAll(spool)).toEqual(["req-0/intent", "req-2/intent"]);
    expect(spool.stats().rejected_total).toBe(1);
    expect(readFileSync(join(dir, "rejected.log"), "utf8")).toMatch(/checksum mismatch/);
    await spool.close();
  });

  it("rotates segments and removes them once shipped", async () => {
    const dir = freshDir();
    const spool = await openSpool({ dir, maxSegmentBytes: 2048 });
    for (let i = 0; i < 40; i++) await spool.append(makeRecord(i, i % 2 ? "outcome" : "intent"));
    const segs = () => readdirSync(dir).filter((f) => f.startsWith("seg-"));
    expect(segs().length).toBeGreaterThan(3);
    const shipped = await drainAll(spool, 7);
    expect(shipped.length).toBe(40);
    expect(new Set(shipped).size).toBe(40);
    expect(segs().length).toBe(1);
    await spool.close();
  });

  it("frees a segment as soon as all of it is shipped, without waiting for its size", async () => {
    const dir = freshDir();
    const spool = await openSpool({ dir, maxSegmentBytes: 1024 * 1024 });
    const segs = () => readdirSync(dir).filter((f) => f.startsWith("seg-"));
    const bytes = () => segs().reduce((n, f) => n + statSync(join(dir, f)).size, 0);
    for (let i = 0; i < 10; i++) await spool.append(makeRecord(i));
    expect(bytes()).toBeGreaterThan(0);
    expect(await drainAll(spool, 4)).toHaveLength(10);
    expect(bytes()).toBe(0);
    // Appends after the rotation ship from the new segment, and survive a reopen.
    await spool.append(makeRecord(10));
    await spool.close();
    const again = await openSpool({ dir });
    expect(await drainAll(again)).toEqual(["req-10/intent"]);
    await again.close();
  });

  it("sets its reserve aside at open (none when 0)", async () => {
    const dir = freshDir();
    const spool = await openSpool({ dir, reserveBytes: 64 * 1024 });
    expect(spool.stats().reserve).toMatchObject({ bytes: 64 * 1024, held: true });
    expect(statSync(join(dir, "reserve")).size).toBe(64 * 1024);
    await spool.close();
    const none = await openSpool({ dir, reserveBytes: 0 });
    expect(none.stats().reserve).toMatchObject({ bytes: 0, held: true });
    expect(existsSync(join(dir, "reserve"))).toBe(false);
    await none.close();
  });

  it.runIf(process.getuid?.() === 0)("a full disk: intents are refused, refusals and outcomes go into the reserve's room", async () => {
    const dir = freshDir();
    mkdirSync(dir);
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=256k,mode=0700", "agent-sudo-spool-spec", dir]);
    try {
      const spool = await openSpool({ dir, reserveBytes: 32 * 1024 });
      await spool.append(makeRecord(1));
      spawnSync("dd", ["if=/dev/zero", `of=${join(dir, "fill")}`, "bs=4096"], { stdio: "ignore" });
      // The active segment's last page may hold a few more: an intent is refused within a few.
      let refused: unknown;
      for (let i = 2; i < 40 && !refused; i++)
        refused = await spool.append(makeRecord(i)).then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(refused).toBeInstanceOf(SpoolUnwritableError);
      expect(spool.stats().reserve.held).toBe(true);
      const depth = spool.depth();
      // A refusal's records and an outcome use the reserve.
      await spool.append(makeRecord(100, "intent"), { reserve: true });
      await spool.append(makeRecord(100, "outcome"), { reserve: true });
      await spool.append(makeRecord(1, "outcome"), { reserve: true });
      expect(spool.depth()).toBe(depth + 3);
      expect(spool.stats().reserve.held).toBe(false);
      expect(existsSync(join(dir, "reserve"))).toBe(false);
      // While it cannot be set aside again, intents are refused.
      spawnSync("dd", ["if=/dev/zero", `of=${join(dir, "fill2")}`, "bs=1024"], { stdio: "ignore" });
      await expect(spool.append(makeRecord(101))).rejects.toThrow(/reserve/);
      rmSync(join(dir, "fill"));
      rmSync(join(dir, "fill2"));
      await new Promise((r) => setTimeout(r, 1100)); // one attempt a second to take it again
      await spool.append(makeRecord(102));
      expect(spool.stats().reserve.held).toBe(true);
      await spool.close();
    } finally {
      spawnSync("umount", ["-l", dir]);
    }
  });

  it("refuses a second opener of the same spool", async () => {
    const dir = freshDir();
    const spool = await openSpool({ dir });
    await expect(openSpool({ dir })).rejects.toThrow(/already open/);
    await spool.close();
  });

  // Root ignores permission bits, so the gateway's real situation (an
  // unprivileged user) is reproduced by switching the effective uid.
  const nobody = lookupUser("nobody");
  it.runIf(process.getuid?.() === 0 && nobody !== undefined)(
    "throws SpoolUnwritableError when the directory is made unwritable",
    async () => {
      const dir = freshDir();
      mkdirSync(dir, { mode: 0o700 });
      chownSync(dir, nobody?.uid ?? 0, nobody?.gid ?? 0);
      process.setegid?.(nobody?.gid ?? 0);
      process.seteuid?.(nobody?.uid ?? 0);
      try {
        const spool = await openSpool({ dir });
        await spool.append(makeRecord(1));
        chmodSync(dir, 0o500);
        await expect(spool.append(makeRecord(2))).rejects.toThrow(SpoolUnwritableError);
        expect(spool.depth()).toBe(1);
        chmodSync(dir, 0o700);
        await spool.append(makeRecord(3)); // recovers once writable again
        expect(spool.depth()).toBe(2);
        await spool.close();
        chmodSync(dir, 0o500);
        await expect(openSpool({ dir: join(dir, "sub") })).rejects.toThrow(SpoolUnwritableError);
      } finally {
        process.seteuid?.(0);
        process.setegid?.(0);
      }
    },
  );

  it("throws SpoolUnwritableError when the spool path cannot be created", async () => {
    const file = join(root, `plain-file-${n++}`);
    writeFileSync(file, "x");
    await expect(openSpool({ dir: join(file, "spool") })).rejects.toThrow(SpoolUnwritableError);
  });
});

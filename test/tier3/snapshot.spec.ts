// The timeshift driver against a stand-in `timeshift` on PATH (not the real
// tool) that mimics its output, including exiting 0 when the snapshot failed.
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import * as snapshot from "../../services/executor/snapshot.js";
import { parseTimeshiftList, snapshotComment, takeSnapshot } from "../../services/executor/snapshot.js";
import { makeStandIns, type StandIns } from "./standins.js";

describe("timeshift snapshot driver (stand-in timeshift on PATH)", () => {
  let s: StandIns;
  const take = (comment: string) => takeSnapshot(comment, s.env);
  beforeEach(() => {
    s = makeStandIns();
  });
  afterEach(() => rmSync(s.dir, { recursive: true, force: true }));

  it("takes a snapshot with --create --comments … --tags O and confirms it in --list", async () => {
    s.script("mode", "ok");
    const r = await take("agent-sudo req-1: systemctl restart nginx");
    expect(r).toMatchObject({ taken: true, id: "2026-07-08_12-00-01" });
    const args = readFileSync(join(s.dir, "last-create-args"), "utf8").trim().split("\n");
    expect(args).toEqual(["--create", "--comments", "agent-sudo req-1: systemctl restart nginx", "--tags", "O"]);
    const second = await take("again");
    expect(second.id).toBe("2026-07-08_12-00-02");
  });

  it("does not believe exit 0 when timeshift failed (its quirk)", async () => {
    s.script("mode", "quirk");
    const r = await take("x");
    expect(r.taken).toBe(false);
    expect(r.detail).toMatch(/no new snapshot/);
    expect(r.detail).toMatch(/E: Failed to create new snapshot|E: Not enough disk space/);
  });

  it("does not believe a success line when --list shows nothing new", async () => {
    s.script("mode", "lying");
    const r = await take("x");
    expect(r.taken).toBe(false);
    expect(r.detail).toMatch(/despite its success line/);
  });

  it("reports a plain failure", async () => {
    s.script("mode", "fail");
    const r = await take("x");
    expect(r.taken).toBe(false);
    expect(r.detail).toMatch(/Another instance/);
  });

  it("falls back to the success line when --list cannot be read", async () => {
    s.script("mode", "list-broken");
    const r = await take("x");
    expect(r).toMatchObject({ taken: true, id: "2026-07-08_12-00-01" });
    expect(r.detail).toMatch(/success line/);
  });

  it("reports a missing timeshift as not taken", async () => {
    const r = await takeSnapshot("x", { ...s.env, PATH: join(s.dir, "no-such-dir") });
    expect(r.taken).toBe(false);
  });

  it("has no restore", () => {
    expect(Object.keys(snapshot).sort()).toEqual(["parseTimeshiftList", "snapshotComment", "takeSnapshot"]);
  });

  it("keeps comments to one printable line of 100 characters", () => {
    expect(snapshotComment("a\nb\tc\u0007d")).toBe("a b c d");
    expect(snapshotComment("x".repeat(300))).toHaveLength(100);
    expect(snapshotComment("")).toBe("agent-sudo");
  });

  it("parses --list rows and rejects an unreadable list", () => {
    expect(parseTimeshiftList({ exitCode: 0, stdout: "Device : /dev/vda1\nNo snapshots found\n" })).toEqual(new Set());
    const rows =
      "Num     Name                 Tags  Description\n---\n0    >  2026-01-01_00-00-00  O     one\n1    >  2026-01-02_00-00-00  D     two\n";
    expect(parseTimeshiftList({ exitCode: 0, stdout: rows })).toEqual(new Set(["2026-01-01_00-00-00", "2026-01-02_00-00-00"]));
    expect(parseTimeshiftList({ exitCode: 1, stdout: rows })).toBeUndefined();
    expect(parseTimeshiftList({ exitCode: 0, stdout: "garbage" })).toBeUndefined();
  });
});

// The executor's own veto must not refuse what the classifier judged
// read-only for /exec: a tier-0 sudo verdict that the executor then refuses
// as VETOED is friction with no safety in it (`fdisk -l DEVICE` was).
import { beforeAll, describe, expect, it } from "vitest";
import { vetoed } from "../../services/executor/veto.js";
import type { Engine } from "../../services/classifier/verdict.js";
import { getEngine, judge, loadCorpus } from "./engine-fixture.js";

const DISK_READS = [
  "fdisk -l",
  "fdisk -l /dev/sda",
  "sfdisk -l /dev/sda",
  "sfdisk --dump /dev/sda",
  "parted -l",
  "parted -s /dev/sda print",
  "wipefs -n /dev/sda",
  "wipefs --no-act /dev/sda",
  "blkid /dev/sda1",
  "lsblk -f",
  "smartctl -a /dev/sda",
  "hdparm -I /dev/sda",
  "tune2fs -l /dev/sda1",
  "dumpe2fs -h /dev/sda1",
];

let engine: Engine;
beforeAll(async () => {
  engine = await getEngine();
});

describe("classifier and executor veto agree on reads", () => {
  it("the disk tools' read forms are tier 0 for /exec and pass the executor's veto", () => {
    for (const host of ["primary", "server-01"] as const) {
      const wrong = DISK_READS.map((command) => ({
        command,
        tier: judge(engine, { command, source: "sudo", host }).tier,
        veto: vetoed(command),
      })).filter((x) => x.tier !== 0 || x.veto !== undefined);
      expect(wrong, host).toEqual([]);
    }
  });

  it("no corpus command judged tier 0 for /exec is refused by the executor's veto", () => {
    const wrong = loadCorpus()
      .filter((c) => c.source === "sudo")
      .filter((c) => judge(engine, c).tier === 0)
      .map((c) => ({ command: c.command, veto: vetoed(c.command, c.cwd ?? "") }))
      .filter((x) => x.veto !== undefined);
    expect(wrong).toEqual([]);
  });
});

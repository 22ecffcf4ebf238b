// The pid lock on real files in a temp dir, with a real other process (a
// `sleep`) as the live holder.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { takePidLock } from "./pid-lock.js";
import { processStamp } from "./process-alive.js";

let dir: string;
let other: ChildProcess;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "agent-sudo-pid-lock-"));
  other = spawn("sleep", ["60"], { stdio: "ignore" });
});
afterAll(() => {
  other.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});
let n = 0;
let path: string;
afterEach(() => rmSync(path, { force: true }));
const next = () => {
  path = join(dir, `l${n++}.lock`);
  return path;
};
const held = (pid: number, fields: string[]) => new Error(`held by ${pid} [${fields.join(",")}]`);

describe("takePidLock", () => {
  it("records pid, fields and stamp; the release removes it", () => {
    const release = takePidLock(next(), ["since-x"], held);
    expect(readFileSync(path, "utf8")).toBe(`${process.pid} since-x ${processStamp()}\n`);
    release();
    expect(existsSync(path)).toBe(false);
  });

  it("a live other process's lock is held: the error names it and its fields; the file is untouched", () => {
    const pid = other.pid as number;
    const text = `${pid} since-y ${processStamp(pid)}\n`;
    writeFileSync(next(), text);
    expect(() => takePidLock(path, ["z"], held)).toThrow(`held by ${pid} [since-y]`);
    expect(readFileSync(path, "utf8")).toBe(text);
  });

  it("a lock whose process is gone, or whose pid now names a later process, is taken over", () => {
    writeFileSync(next(), "4194000 since-old\n");
    takePidLock(path, ["new"], held)();
    const pid = other.pid as number;
    // The pid is alive but started at another tick: a later process got the pid.
    writeFileSync(next(), `${pid} 1 ${processStamp(pid).split(" ")[1]}\n`);
    const release = takePidLock(path, [], held);
    expect(readFileSync(path, "utf8").startsWith(`${process.pid} `)).toBe(true);
    release();
  });

  it("a lock without a stamp (an older file) is judged by the pid alone", () => {
    writeFileSync(next(), `${other.pid}\n`);
    expect(() => takePidLock(path, [], held)).toThrow(`held by ${other.pid}`);
  });

  it("this process taking its own lock again is refused; no temp file is left", () => {
    const release = takePidLock(next(), ["first"], held);
    expect(readFileSync(path, "utf8").startsWith(`${process.pid} first `)).toBe(true);
    expect(() => takePidLock(path, ["second"], held)).toThrow(`held by ${process.pid} [first]`);
    release();
    expect(readdirSync(dir).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });

  it("a lock with this pid but another process's stamp (a restart that got the same pid) is taken over", () => {
    writeFileSync(next(), `${process.pid} ${processStamp(other.pid)}\n`);
    const release = takePidLock(path, [], held);
    expect(readFileSync(path, "utf8")).toBe(`${process.pid} ${processStamp()}\n`);
    release();
    expect(existsSync(path)).toBe(false);
  });

  it("the release leaves a lock another process has taken since", () => {
    const release = takePidLock(next(), [], held);
    writeFileSync(path, `${other.pid} ${processStamp(other.pid)}\n`);
    release();
    expect(existsSync(path)).toBe(true);
  });
});

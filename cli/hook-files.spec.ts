// writeWithBackup: `agent-sudo hook install` may run as root and write into a
// directory someone else owns (a project's .claude/). A name left there — a
// link to another file, dangling or not — must never be written through.
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { writeWithBackup } from "./hook-files.js";

const dirs: string[] = [];
afterEach(() => {
  vi.useRealTimers();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function setup() {
  const base = mkdtempSync(join(tmpdir(), "agent-sudo-hook-files-"));
  dirs.push(base);
  const elsewhere = join(base, "etc");
  mkdirSync(elsewhere);
  const victim = join(elsewhere, "shadow");
  writeFileSync(victim, "root:x:19000::::::\n", { mode: 0o600 });
  const project = join(base, "project", ".claude");
  mkdirSync(project, { recursive: true });
  const settings = join(project, "settings.json");
  writeFileSync(settings, '{"hooks":{}}\n', { mode: 0o666 });
  return { elsewhere, victim, settings };
}

describe("writeWithBackup", () => {
  it("a link planted at the temporary name: not written through, not chmodded; the new file replaces it", () => {
    const { victim, settings } = setup();
    symlinkSync(victim, `${settings}.tmp-${process.pid}`);
    writeWithBackup(settings, '{"hooks":{"PreToolUse":[]}}\n', true);
    expect(readFileSync(victim, "utf8")).toBe("root:x:19000::::::\n");
    expect(statSync(victim).mode & 0o777).toBe(0o600);
    expect(lstatSync(settings).isSymbolicLink()).toBe(false);
    expect(readFileSync(settings, "utf8")).toContain("PreToolUse");
  });

  it("a dangling link planted at the backup's name: nothing is created where it points; the backup takes another name", () => {
    const { elsewhere, settings } = setup();
    vi.useFakeTimers({ now: new Date("2026-01-02T03:04:05.678Z") });
    const planted = join(elsewhere, "cron-job");
    symlinkSync(planted, `${settings}.bak-20260102T030405678Z`);
    const backup = writeWithBackup(settings, "{}\n", true);
    expect(existsSync(planted)).toBe(false);
    expect(backup).toBe(`${settings}.bak-20260102T030405678Z-1`);
    expect(readFileSync(backup ?? "", "utf8")).toBe('{"hooks":{}}\n');
  });
});

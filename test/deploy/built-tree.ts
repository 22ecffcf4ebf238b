// Helpers for tests that install the built tree: a frozen copy of it, and a
// command's printed lines.
import { cpSync, existsSync, mkdirSync, mkdtempSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { vi } from "vitest";
import { repoRoot } from "../support/stack.js";

/**
 * A frozen copy of the built tree (others may rebuild dist/ while a test runs,
 * which would make a second install rightly say "copy"); node_modules is
 * linked, not copied.
 */
export function snapshot(): string {
  const dir = mkdtempSync(join(tmpdir(), "agent-sudo-src-"));
  for (const rel of [
    "package.json",
    "package-lock.json",
    "bin",
    "dist/cli",
    "dist/proto",
    "dist/services",
    "policies",
    "services/gateway/audit/migrations",
    "systemd",
    "apparmor",
  ]) {
    if (!existsSync(join(repoRoot, rel))) continue;
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    cpSync(join(repoRoot, rel), join(dir, rel), { recursive: true });
  }
  symlinkSync(join(repoRoot, "node_modules"), join(dir, "node_modules"));
  return dir;
}

/** Runs a command, capturing what it prints. */
export async function capture(fn: (argv: string[]) => Promise<number>, argv: string[]): Promise<{ code: number; out: string }> {
  const lines: string[] = [];
  const spy = vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  try {
    return { code: await fn(argv), out: lines.join("") };
  } finally {
    spy.mockRestore();
  }
}

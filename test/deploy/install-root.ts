// `agent-sudo install` as root without touching this machine: a frozen copy
// of the built tree (made here), a throwaway root (test/support/throwaway-root.ts)
// to run the installed CLI in, and a temporary --root inside it. The system
// users install creates land in the throwaway root's /etc/passwd; files are
// read from here through /proc/PID/root.
import { chmodSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { startThrowawayRoot, type ExecResult, type ThrowawayRoot } from "../support/throwaway-root.js";
import { snapshot } from "./built-tree.js";

export interface InstallRoot {
  tr: ThrowawayRoot;
  /** The install's --root: a directory inside the throwaway root (0755). */
  root: string;
  /** The frozen built tree install copies from (--from); visible inside at the same path. */
  src: string;
  /** A path inside the throwaway root, as seen from here. */
  outside(path: string): string;
  /** `agent-sudo ARGV` inside, as root, from the frozen tree. */
  cli(...argv: string[]): Promise<{ code: number; out: string; err: string }>;
  /** `agent-sudo install ARGV --root ROOT --from SRC` inside. */
  install(...argv: string[]): Promise<{ code: number; out: string; err: string }>;
  uninstall(...argv: string[]): Promise<{ code: number; out: string; err: string }>;
  /** A user of the throwaway root (its /etc/passwd), or undefined. */
  user(name: string): { uid: number; gid: number } | undefined;
  /** argv inside as `user`: no supplementary groups, an environment of exactly `env`, and setpriv's extra options. */
  asUser(user: string, argv: string[], opts?: { env?: Record<string, string>; setpriv?: string[] }): Promise<ExecResult>;
  close(): Promise<void>;
}

export async function startInstallRoot(): Promise<InstallRoot> {
  const src = snapshot(); // before the throwaway root: its /tmp layer shows it
  let tr: ThrowawayRoot;
  try {
    tr = await startThrowawayRoot();
  } catch (err) {
    rmSync(src, { recursive: true, force: true });
    throw err;
  }
  const outside = (p: string) => `/proc/${tr.pid}/root${p}`;
  const made = await tr.exec(["mktemp", "-d", "/tmp/agent-sudo-root-XXXXXX"]);
  if (made.code !== 0) {
    await tr.close();
    throw new Error(`mktemp inside the throwaway root: ${made.stderr}`);
  }
  const root = made.stdout.trim();
  chmodSync(outside(root), 0o755);
  const cli = async (...argv: string[]) => {
    const r = await tr.exec([process.execPath, join(src, "dist/cli/main.js"), ...argv], { timeoutMs: 170_000 });
    return { code: r.code, out: r.stdout, err: r.stderr };
  };
  const user = (name: string) => {
    const f = readFileSync(outside("/etc/passwd"), "utf8")
      .split("\n")
      .map((l) => l.split(":"))
      .find((x) => x[0] === name);
    return f ? { uid: Number(f[2]), gid: Number(f[3]) } : undefined;
  };
  return {
    tr,
    root,
    src,
    outside,
    cli,
    install: (...argv) => cli("install", ...argv, "--root", root, "--from", src),
    uninstall: (...argv) => cli("uninstall", ...argv, "--root", root, "--from", src),
    user,
    asUser(name, argv, opts = {}) {
      const u = user(name);
      if (!u) throw new Error(`no user ${name} inside the throwaway root`);
      const env = Object.entries(opts.env ?? { PATH: "/usr/bin:/bin" }).map(([k, v]) => `${k}=${v}`);
      return tr.exec(
        [
          "setpriv",
          `--reuid=${u.uid}`,
          `--regid=${u.gid}`,
          "--clear-groups",
          ...(opts.setpriv ?? []),
          "--",
          "/usr/bin/env",
          "-i",
          ...env,
          ...argv,
        ],
        { timeoutMs: 120_000 },
      );
    },
    async close() {
      await tr.close();
      rmSync(src, { recursive: true, force: true });
    },
  };
}

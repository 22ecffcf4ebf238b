// Users and the privilege drop. Node has no getpwnam, so /etc/passwd and
// /etc/group are read directly (the system databases this project needs).
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

export interface Account {
  name: string;
  uid: number;
  gid: number;
  home: string;
}

function parseDb(path: string): string[][] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line && !line.startsWith("#"))
    .map((line) => line.split(":"));
}

export function lookupUser(name: string): Account | undefined {
  for (const f of parseDb("/etc/passwd")) {
    if (f[0] === name && f.length >= 7) {
      return { name, uid: Number(f[2]), gid: Number(f[3]), home: f[5] ?? "/" };
    }
  }
  return undefined;
}

/**
 * A system user with its own group, no home and no login (useradd --system),
 * made when missing (root only). Throws when it cannot be made.
 */
export function ensureSystemUser(name: string): { account: Account; created: boolean } {
  const existing = lookupUser(name);
  if (existing) return { account: existing, created: false };
  let why = "";
  try {
    execFileSync(
      "useradd",
      ["--system", "--no-create-home", "--home-dir", "/nonexistent", "--shell", "/usr/sbin/nologin", "--user-group", name],
      { stdio: "pipe" },
    );
  } catch (err) {
    why = (err as { stderr?: Buffer }).stderr?.toString().trim() || String(err);
  }
  // Another process may have made it meanwhile: what counts is that it is there now.
  const account = lookupUser(name);
  if (!account) throw new Error(`cannot create user ${name}: ${why || "useradd ran but the user does not exist"}`);
  return { account, created: why === "" };
}

/** The gid of a group by name, from /etc/group. */
export function lookupGroupId(name: string): number | undefined {
  for (const f of parseDb("/etc/group")) {
    if (f[0] === name && f[2] !== undefined && f[2] !== "") return Number(f[2]);
  }
  return undefined;
}

/** The groups `name` is in (initgroups(3)): its primary group and every /etc/group entry listing it. */
export function groupsOf(name: string, gid: number): number[] {
  const out = new Set([gid]);
  for (const f of parseDb("/etc/group")) {
    if (f[2] !== undefined && f[2] !== "" && (f[3] ?? "").split(",").includes(name)) out.add(Number(f[2]));
  }
  return [...out];
}

export function lookupUid(uid: number): Account | undefined {
  for (const f of parseDb("/etc/passwd")) {
    if (Number(f[2]) === uid && f.length >= 7) {
      return { name: f[0] ?? String(uid), uid, gid: Number(f[3]), home: f[5] ?? "/" };
    }
  }
  return undefined;
}

export function isRoot(): boolean {
  return process.getuid?.() === 0;
}

/**
 * Drops to `account` for good: supplementary groups cleared, gid then uid
 * set, and the result checked — a drop that did not stick is fatal.
 */
export function dropPrivileges(account: Account): void {
  if (account.uid === 0) throw new Error(`refusing to "drop" to uid 0 (${account.name})`);
  process.setgroups?.([account.gid]);
  process.setgid?.(account.gid);
  process.setuid?.(account.uid);
  if (process.getuid?.() !== account.uid || process.geteuid?.() !== account.uid || process.getgid?.() !== account.gid) {
    throw new Error("privilege drop did not take effect");
  }
  let regained = false;
  try {
    process.setuid?.(0);
    regained = true;
  } catch {
    // expected: root cannot be regained
  }
  if (regained) throw new Error("privilege drop is reversible; refusing to serve");
}

// The machinery every part of `agent-sudo install` / `uninstall` shares: the
// options both commands parse into, where things go on a host (the prefix,
// the state dir, the unit and profile dirs, all under --root), and Actions —
// every step is printed, counted and applied unless --dry-run, so a second
// run finds nothing to do and says "unchanged". Owners are named by user and
// resolved at apply time: the service users may not exist yet on a dry run.
import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { HostId } from "../services/shared/config.js";
import { lookupUser } from "../services/shared/privilege.js";

export const DEFAULT_PREFIX = "/opt/agent-sudo";
export const STATE_DIR = "/var/lib/agent-sudo";
export const UNIT_DIR = "/etc/systemd/system";
export const PROFILE_DIR = "/etc/apparmor.d";
export const HTTP = { bind: "127.0.0.1", port: 8084 };

export type Say = (line: string) => void;

/** The package root: the nearest ancestor with agent-sudo's package.json (works from cli/ and dist/cli/). */
export function sourceRoot(): string {
  for (let d = dirname(fileURLToPath(import.meta.url)); d !== dirname(d); d = dirname(d)) {
    const pkg = join(d, "package.json");
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, "utf8")) as { name?: string }).name === "agent-sudo") return d;
  }
  throw new Error("cannot find the agent-sudo package root");
}

export interface Owner {
  user: string;
}
export const ROOT: Owner = { user: "root" };

function ids(owner: Owner): { uid: number; gid: number } | undefined {
  if (owner.user === "root") return { uid: 0, gid: 0 };
  const a = lookupUser(owner.user);
  return a ? { uid: a.uid, gid: a.gid } : undefined;
}

export function fmt(mode: number, owner: Owner): string {
  return `${mode.toString(8).padStart(4, "0")} ${owner.user}:${owner.user}`;
}

/** True when `path` has exactly this mode and owner. */
export function hasMeta(path: string, mode: number, owner: Owner): boolean {
  const st = lstatSync(path);
  const want = ids(owner);
  return (st.mode & 0o7777) === mode && want !== undefined && st.uid === want.uid && st.gid === want.gid;
}

export function setMeta(path: string, mode: number, owner: Owner): void {
  const want = ids(owner);
  if (!want) throw new Error(`user ${owner.user} does not exist`);
  chownSync(path, want.uid, want.gid);
  chmodSync(path, mode);
}

/** Every action goes through here: printed, counted, applied unless --dry-run. */
export class Actions {
  changed = 0;
  unchanged = 0;
  constructor(
    readonly dryRun: boolean,
    private readonly say: Say,
  ) {}

  /** `verb` says what is done when needed; `what` names the thing either way. */
  step(verb: string, what: string, needed: boolean, apply: () => void): void {
    if (!needed) {
      this.unchanged++;
      this.say(`  unchanged  ${what}`);
      return;
    }
    this.changed++;
    this.say(`  ${this.dryRun ? "would " : ""}${verb} ${what}`);
    if (!this.dryRun) apply();
  }

  dir(path: string, mode: number, owner: Owner): void {
    const exists = existsSync(path);
    this.step(exists ? "fix" : "mkdir", `${path}/ (${fmt(mode, owner)})`, !exists || !hasMeta(path, mode, owner), () => {
      mkdirSync(path, { recursive: true, mode });
      setMeta(path, mode, owner);
    });
  }

  file(path: string, content: string | Buffer, mode: number, owner: Owner, label = ""): void {
    const data = Buffer.from(content);
    const exists = existsSync(path);
    const same = exists && lstatSync(path).isFile() && readFileSync(path).equals(data);
    this.step(
      exists && !same ? "replace" : exists ? "fix" : "write",
      `${path} (${fmt(mode, owner)})${label}`,
      !same || !hasMeta(path, mode, owner),
      () => {
        if (!same) writeAtomic(path, data, mode);
        setMeta(path, mode, owner);
      },
    );
  }

  /** Creates the missing ancestors of `path` (0755 root), leaving existing ones alone. */
  parents(path: string): void {
    const missing: string[] = [];
    for (let d = dirname(path); !existsSync(d); d = dirname(d)) missing.unshift(d);
    for (const d of missing) this.dir(d, 0o755, ROOT);
  }

  remove(path: string, what: string = path): void {
    if (existsSync(path) || isSymlink(path)) this.step("remove", what, true, () => rmSync(path, { recursive: true, force: true }));
  }
}

export function isSymlink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

export function writeAtomic(path: string, data: Buffer, mode: number): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o755 });
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(tmp, data, { mode });
  renameSync(tmp, path);
}

export interface Options {
  host?: HostId;
  dryRun: boolean;
  root: string;
  prefix: string;
  purge: boolean;
  /** The built tree to install from; default: the package this CLI runs from. */
  from?: string;
}

/** `path` on the host being laid out: under --root. */
export const at = (o: Options, path: string) => join(o.root, path);

// `agent-sudo install` / `agent-sudo uninstall`: lays a host out the way
// systemd/README.md describes it — service users, the state dir with its keys
// and modes, the host's config.json, the code under the prefix, the systemd
// units and the AppArmor profiles. It prints every action; with --dry-run it
// only prints them. A second run finds nothing to do and says "unchanged". It
// never starts a unit or loads a profile: those are the printed next steps,
// a person's act.
//
// --root DIR stages every file under DIR (tests, image builds). The service
// users are created on this machine either way: they own files in the tree.
import { execFileSync } from "node:child_process";
import { lookup } from "node:dns/promises";
import {
  chmodSync,
  chownSync,
  existsSync,
  lchownSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmdirSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { isIP } from "node:net";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { HOST_IDS, type HostId, loadConfig, SERVICES, type UnprivilegedService } from "../services/shared/config.js";
import { privateKeyPath, publicKeyPath, SIGNERS } from "../services/shared/keys.js";
import { isRoot, lookupUser } from "../services/shared/privilege.js";
import { PENDING_FILE } from "../services/shared/proposals.js";
import { ensureUser, prepareHome } from "./home.js";

export const DEFAULT_PREFIX = "/opt/agent-sudo";
export const STATE_DIR = "/var/lib/agent-sudo";
const UNIT_DIR = "/etc/systemd/system";
const PROFILE_DIR = "/etc/apparmor.d";
const MANIFEST = ".agent-sudo-manifest.json";
const HTTP = { bind: "127.0.0.1", port: 8084 };

/**
 * agent-sudo-rules-learn.service (the hourly `rules learn`): its user (the
 * unit's User=, created here), the proposals store it writes (config's
 * proposals_dir, relative to the state dir; the unit's ReadWritePaths=), and
 * the environment file it shares with the gateway (DATABASE_URL, ntfy).
 */
export const LEARNER = { user: "agent-sudo-lrn", proposals: "state/proposals", unit: "agent-sudo-rules-learn.service" } as const;

/** Directories of the state dir a service writes after its drop (unit ReadWritePaths=). */
const OWN_STATE: Partial<Record<UnprivilegedService | "executor", string>> = { executor: "executor", gateway: "gateway", breaker: "breaker", sandbox: "sandbox" };

type Say = (line: string) => void;

/** The package root: the nearest ancestor with agent-sudo's package.json (works from cli/ and dist/cli/). */
function sourceRoot(): string {
  for (let d = dirname(fileURLToPath(import.meta.url)); d !== dirname(d); d = dirname(d)) {
    const pkg = join(d, "package.json");
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, "utf8")) as { name?: string }).name === "agent-sudo") return d;
  }
  throw new Error("cannot find the agent-sudo package root");
}

interface Owner {
  user: string;
}
const ROOT: Owner = { user: "root" };

function ids(owner: Owner): { uid: number; gid: number } | undefined {
  if (owner.user === "root") return { uid: 0, gid: 0 };
  const a = lookupUser(owner.user);
  return a ? { uid: a.uid, gid: a.gid } : undefined;
}

function fmt(mode: number, owner: Owner): string {
  return `${mode.toString(8).padStart(4, "0")} ${owner.user}:${owner.user}`;
}

/** True when `path` has exactly this mode and owner. */
function hasMeta(path: string, mode: number, owner: Owner): boolean {
  const st = lstatSync(path);
  const want = ids(owner);
  return (st.mode & 0o7777) === mode && want !== undefined && st.uid === want.uid && st.gid === want.gid;
}

function setMeta(path: string, mode: number, owner: Owner): void {
  const want = ids(owner);
  if (!want) throw new Error(`user ${owner.user} does not exist`);
  chownSync(path, want.uid, want.gid);
  chmodSync(path, mode);
}

/** Every action goes through here: printed, counted, applied unless --dry-run. */
class Actions {
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
    this.step(exists && !same ? "replace" : exists ? "fix" : "write", `${path} (${fmt(mode, owner)})${label}`, !same || !hasMeta(path, mode, owner), () => {
      if (!same) writeAtomic(path, data, mode);
      setMeta(path, mode, owner);
    });
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

function isSymlink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

function writeAtomic(path: string, data: Buffer, mode: number): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o755 });
  const tmp = `${path}.tmp-${process.pid}`;
  writeFileSync(tmp, data, { mode });
  renameSync(tmp, path);
}

interface Options {
  host?: HostId;
  dryRun: boolean;
  root: string;
  prefix: string;
  purge: boolean;
  /** The built tree to install from; default: the package this CLI runs from. */
  from?: string;
}

const USAGE = `usage: agent-sudo install --host primary|server-01 [--dry-run] [--root DIR] [--prefix ${DEFAULT_PREFIX}] [--from BUILT_TREE]
       agent-sudo uninstall [--purge] [--dry-run] [--root DIR] [--prefix ${DEFAULT_PREFIX}] [--from BUILT_TREE]`;

function parse(argv: string[], install: boolean): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      host: { type: "string" },
      "dry-run": { type: "boolean", default: false },
      root: { type: "string", default: "/" },
      prefix: { type: "string", default: DEFAULT_PREFIX },
      purge: { type: "boolean", default: false },
      from: { type: "string" },
    },
    strict: true,
    allowPositionals: false,
  });
  if (install && !HOST_IDS.includes(values.host as HostId)) throw new Error(`--host must be one of ${HOST_IDS.join(", ")}\n${USAGE}`);
  if (!install && values.host !== undefined) throw new Error(`uninstall takes no --host\n${USAGE}`);
  if (install && values.purge) throw new Error(`--purge is an uninstall option\n${USAGE}`);
  const prefix = values.prefix.replace(/\/+$/, "");
  if (!/^\/[A-Za-z0-9._/-]+$/.test(prefix) || ["/usr", "/etc", "/var", "/opt", "/bin", "/lib", "/home"].includes(prefix)) {
    throw new Error(`--prefix must be a dedicated absolute directory such as ${DEFAULT_PREFIX} (got ${values.prefix})`);
  }
  if (!values.root.startsWith("/")) throw new Error("--root must be an absolute path");
  if (values.from !== undefined && !values.from.startsWith("/")) throw new Error("--from must be an absolute path");
  return { host: values.host as HostId | undefined, dryRun: values["dry-run"], root: values.root, prefix, purge: values.purge, from: values.from };
}

const at = (o: Options, path: string) => join(o.root, path);

// ---------------------------------------------------------------- the code

interface Entry {
  rel: string;
  kind: "file" | "dir" | "symlink";
  exec: boolean;
}

/** What runs on a host: the build, the runtime dependencies, bin/, policies, migrations, the deployment files. */
function codeTree(src: string): Map<string, Entry[]> {
  if (!existsSync(join(src, "dist", "services"))) throw new Error(`${src}/dist is missing: run \`npm run build\` first`);
  const lock = JSON.parse(readFileSync(join(src, "package-lock.json"), "utf8")) as { packages: Record<string, { dev?: boolean }> };
  const modules = Object.entries(lock.packages)
    .filter(([k, v]) => !v.dev && /^node_modules\/(@[^/]+\/)?[^/]+$/.test(k) && existsSync(join(src, k)))
    .map(([k]) => k)
    .sort();
  const tops = ["package.json", "package-lock.json", "bin", "dist/cli", "dist/proto", "dist/services", "policies", "services/gateway/audit/migrations", "systemd", "apparmor"];
  const groups = new Map<string, Entry[]>();
  for (const top of tops.filter((t) => existsSync(join(src, t)))) groups.set(top, walk(src, top));
  groups.set("node_modules", modules.flatMap((m) => walk(src, m)));
  return groups;
}

/** Host state that may sit in a source tree's policies/ (a local `rules learn` or `activate`): never shipped as code. */
const NOT_CODE = new RegExp(`^(${PENDING_FILE.replace(/\./g, "\\.")}|\\.rules-stage-)`);

function walk(src: string, rel: string): Entry[] {
  if (NOT_CODE.test(basename(rel))) return [];
  const st = lstatSync(join(src, rel));
  if (st.isSymbolicLink()) return [{ rel, kind: "symlink", exec: false }];
  if (st.isFile()) return [{ rel, kind: "file", exec: (st.mode & 0o111) !== 0 }];
  if (!st.isDirectory()) return [];
  const out: Entry[] = [{ rel, kind: "dir", exec: true }];
  for (const name of readdirSync(join(src, rel)).sort()) out.push(...walk(src, join(rel, name)));
  return out;
}

/** Whether the installed copy of one entry differs (content, link target, mode or owner). */
function entryDiffers(src: string, dest: string, e: Entry): boolean {
  if (!existsSync(dest) && !isSymlink(dest)) return true;
  const st = lstatSync(dest);
  if (e.kind === "symlink") return !st.isSymbolicLink() || readlinkSync(dest) !== readlinkSync(src) || st.uid !== 0;
  const mode = e.kind === "dir" || e.exec ? 0o755 : 0o644;
  if ((st.mode & 0o7777) !== mode || st.uid !== 0 || st.gid !== 0) return true;
  if (e.kind === "dir") return !st.isDirectory();
  return !st.isFile() || st.size !== lstatSync(src).size || !readFileSync(dest).equals(readFileSync(src));
}

function installEntry(src: string, dest: string, e: Entry): void {
  if (e.kind === "dir") {
    if (existsSync(dest) && !lstatSync(dest).isDirectory()) rmSync(dest, { force: true });
    mkdirSync(dest, { recursive: true, mode: 0o755 });
    chownSync(dest, 0, 0);
    chmodSync(dest, 0o755);
    return;
  }
  if (existsSync(dest) || isSymlink(dest)) rmSync(dest, { recursive: true, force: true });
  mkdirSync(dirname(dest), { recursive: true, mode: 0o755 });
  if (e.kind === "symlink") {
    symlinkSync(readlinkSync(src), dest);
    lchownSync(dest, 0, 0);
    return;
  }
  const mode = e.exec ? 0o755 : 0o644;
  writeAtomic(dest, readFileSync(src), mode);
  chownSync(dest, 0, 0);
  chmodSync(dest, mode);
}

function readManifest(prefix: string): string[] {
  const path = join(prefix, MANIFEST);
  if (!existsSync(path)) return [];
  return (JSON.parse(readFileSync(path, "utf8")) as { paths: string[] }).paths;
}

function installCode(o: Options, src: string, act: Actions): void {
  const prefix = at(o, o.prefix);
  if (src === prefix) {
    act.step("", `code: already running from ${prefix}`, false, () => {});
    return;
  }
  act.dir(prefix, 0o755, ROOT);
  const groups = codeTree(src);
  const all: string[] = [];
  for (const [top, entries] of groups) {
    all.push(...entries.map((e) => e.rel));
    const stale = entries.filter((e) => entryDiffers(join(src, e.rel), join(prefix, e.rel), e));
    const files = entries.filter((e) => e.kind !== "dir").length;
    act.step("copy", `${join(prefix, top)} ← ${join(src, top)} (${files} file${files === 1 ? "" : "s"}, root:root 0644/0755${stale.length ? `; ${stale.length} to write` : ""})`, stale.length > 0, () => {
      for (const e of stale) installEntry(join(src, e.rel), join(prefix, e.rel), e);
    });
  }
  const keep = new Set(all);
  const old = readManifest(prefix).filter((p) => !keep.has(p));
  act.step("remove", `${old.length} stale path(s) of an earlier install under ${prefix}`, old.length > 0, () => removeListed(prefix, old));
  act.file(join(prefix, MANIFEST), `${JSON.stringify({ paths: all }, null, 0)}\n`, 0o644, ROOT, " (what uninstall removes)");
}

/** Removes empty directories under (and including) `dir`, deepest first. */
function pruneEmpty(dir: string): void {
  if (!existsSync(dir) || !lstatSync(dir).isDirectory()) return;
  for (const name of readdirSync(dir)) pruneEmpty(join(dir, name));
  if (readdirSync(dir).length === 0) rmdirSync(dir);
}

/** Removes the listed paths (files first, then directories deepest first, only when empty). */
function removeListed(prefix: string, paths: string[]): void {
  const sorted = [...paths].sort((a, b) => b.split("/").length - a.split("/").length || b.localeCompare(a));
  for (const rel of sorted) {
    const p = join(prefix, rel);
    if (!existsSync(p) && !isSymlink(p)) continue;
    if (lstatSync(p).isDirectory()) {
      if (readdirSync(p).length === 0) rmdirSync(p);
    } else unlinkSync(p);
  }
}

// -------------------------------------------------- units, profiles, state

function deploymentFiles(src: string, dir: "systemd" | "apparmor"): string[] {
  const names = readdirSync(join(src, dir)).filter((n) => (dir === "systemd" ? /^agent-sudo.*\.(service|target|timer)$/.test(n) : /^agent-sudo-[a-z]+(-[a-z]+)*$/.test(n)));
  return names.sort();
}

function rewritePrefix(text: string, prefix: string): string {
  return prefix === DEFAULT_PREFIX ? text : text.split(DEFAULT_PREFIX).join(prefix);
}

function installState(o: Options, act: Actions, say: Say): void {
  const home = at(o, STATE_DIR);
  const config = loadConfig(home);
  act.parents(home);
  // Predict what prepareHome (cli/home.ts) will do, so a dry run can say it.
  for (const s of SERVICES) {
    if (s === "executor") continue;
    const user = config.users[s];
    act.step("create", `system user ${user} (useradd --system, nologin)`, !lookupUser(user), () => {});
  }
  act.step("create", `system user ${LEARNER.user} (useradd --system, nologin; ${LEARNER.unit})`, !lookupUser(LEARNER.user), () => ensureUser(LEARNER.user, () => {}));
  const dirs: Array<[string, number]> = [[home, 0o711], [config.runDir, 0o711], [config.stateDir, 0o711], [config.logsDir, 0o700], [config.keysDir, 0o755]];
  for (const [d, mode] of dirs) act.step(existsSync(d) ? "fix" : "mkdir", `${d}/ (${fmt(mode, ROOT)})`, !existsSync(d) || !hasMeta(d, mode, ROOT), () => {});
  for (const signer of SIGNERS) {
    const missing = !existsSync(privateKeyPath(config.keysDir, signer)) || !existsSync(publicKeyPath(config.keysDir, signer));
    act.step("generate", `ed25519 signing key ${signer} (keys/${signer}.key 0600 root:root, keys/${signer}.pub 0644 root:root)`, missing, () => {});
  }
  // The real work: prepareHome (cli/home.ts) creates the users, dirs and keys (ensureKeys).
  if (!act.dryRun) prepareHome(config, () => {});
  for (const [service, name] of Object.entries(OWN_STATE)) {
    const owner = service === "executor" ? ROOT : { user: config.users[service as UnprivilegedService] };
    act.dir(join(config.stateDir, name), 0o700, owner);
  }
  installProposalsStore(o, act, home);
  const cfgPath = join(home, "config.json");
  let body: Record<string, unknown> = { host_id: o.host, http: HTTP };
  if (existsSync(cfgPath)) {
    const current = JSON.parse(readFileSync(cfgPath, "utf8")) as Record<string, unknown>;
    if (current.host_id !== undefined && current.host_id !== o.host) {
      throw new Error(`${cfgPath} says host_id ${JSON.stringify(current.host_id)}; refusing to turn it into ${o.host} (edit it by hand if this is intended)`);
    }
    body = { ...current, host_id: o.host };
  }
  // Under systemd the executor's unit forbids setns (RestrictNamespaces=):
  // commands whose rules grant network run as transient units (network.ts).
  body.executor = { network: "systemd-run", ...((body.executor as Record<string, unknown> | undefined) ?? {}) };
  // The proposals store lives where the unprivileged learner may write it, not beside the root-owned policies.
  body.proposals_dir ??= LEARNER.proposals;
  const text = `${JSON.stringify(body, null, 2)}\n`;
  act.file(cfgPath, text, 0o644, ROOT, `: ${JSON.stringify(body)}`);
  if (!act.dryRun) loadConfig(home); // the services' own validation: a bad file stops here, not at start
  const tokens = join(home, "tokens.json");
  if (existsSync(tokens)) act.file(tokens, readFileSync(tokens), 0o600, ROOT, " (callers kept)");
  else act.file(tokens, `${JSON.stringify({ callers: [] }, null, 2)}\n`, 0o600, ROOT, " (no callers yet)");
}

/**
 * state/proposals (0700, the learner's): the one directory its unit may
 * write. A store an earlier install left beside the installed policies (root
 * ran `rules learn` there) moves in, so rejections and activations are kept.
 */
function installProposalsStore(o: Options, act: Actions, home: string): void {
  const dir = join(home, LEARNER.proposals);
  act.dir(dir, 0o700, { user: LEARNER.user });
  const old = join(at(o, o.prefix), "policies", PENDING_FILE);
  const store = join(dir, PENDING_FILE);
  if (!existsSync(old) || existsSync(store)) return;
  act.step("move", `${old} → ${store} (the proposals store: rejections and activations kept)`, true, () => {
    writeAtomic(store, readFileSync(old), 0o644);
    setMeta(store, 0o644, { user: LEARNER.user });
    unlinkSync(old);
  });
}

// ------------------------------------------------------- network drop-ins

/**
 * Environment files systemd reads for a unit (EnvironmentFile=, 0600 root,
 * written by a person), and which of their URLs name a host the unit must
 * reach. `pin`: the unit gets no DNS — the addresses resolved here are
 * written into an /etc/hosts of its own (BindReadOnlyPaths=), so what it
 * connects to is exactly what IPAddressAllow= lets through.
 */
const ENV_FILES: Array<{ unit: string; env: "breaker" | "gateway"; keys: string[]; pin: boolean; dropIn: string }> = [
  { unit: "agent-sudo-breaker.service", env: "breaker", keys: ["AGENT_SUDO_NTFY_URL"], pin: true, dropIn: "ntfy" },
  { unit: "agent-sudo-gateway.service", env: "gateway", keys: ["DATABASE_URL", "AGENT_SUDO_NTFY_URL"], pin: false, dropIn: "destinations" },
  // The learner reads the gateway's database and announces on its ntfy: same file, same IPAddressAllow= ranges.
  { unit: LEARNER.unit, env: "gateway", keys: ["DATABASE_URL", "AGENT_SUDO_NTFY_URL"], pin: false, dropIn: "destinations" },
];

/** KEY=VALUE lines of a systemd EnvironmentFile (blank lines, # and ; comments, optional quotes). */
export function parseEnvFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (!line || line.startsWith("#") || line.startsWith(";")) continue;
    const m = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line);
    if (!m?.[1]) continue;
    let v = (m[2] ?? "").trim();
    if (v.length >= 2 && (v[0] === '"' || v[0] === "'") && v.at(-1) === v[0]) v = v.slice(1, -1);
    out[m[1]] = v;
  }
  return out;
}

/** Addresses the gateway's unit allows already (its IPAddressAllow=): loopback, link-local, private ranges. */
export function inGatewayRanges(ip: string): boolean {
  if (isIP(ip) === 4) {
    const [a = 0, b = 0] = ip.split(".").map(Number);
    return a === 127 || a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254);
  }
  const v6 = ip.toLowerCase();
  return v6 === "::1" || /^f[cd][0-9a-f]{2}:/.test(v6) || /^fe[89ab][0-9a-f]:/.test(v6);
}

/** The host part of a URL from an environment file, or undefined (unset, a Unix socket). */
function urlHost(value: string | undefined, key: string, file: string): string | undefined {
  if (!value) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${key} in ${file} is not a URL`);
  }
  const host = url.hostname.replace(/^\[|\]$/g, "");
  return host === "" ? undefined : host;
}

async function resolveHost(host: string, key: string, file: string): Promise<string[]> {
  if (isIP(host)) return [host];
  try {
    const found = await lookup(host, { all: true, verbatim: true });
    return [...new Set(found.map((a) => a.address))];
  } catch (err) {
    throw new Error(`cannot resolve ${host} (${key} in ${file}): ${(err as Error).message}; the unit's IPAddressAllow= needs its addresses`);
  }
}

/**
 * The breaker's (and, when needed, the gateway's) drop-in that lets the unit
 * reach exactly the destinations its environment file names. Rewritten on
 * every install; removed when the file no longer names one.
 */
async function installNetworkDropIns(o: Options, act: Actions): Promise<void> {
  const home = at(o, STATE_DIR);
  for (const e of ENV_FILES) {
    const envPath = join(home, `${e.env}.env`);
    const unit = e.unit;
    const dir = at(o, join(UNIT_DIR, `${unit}.d`));
    const conf = join(dir, `${e.dropIn}.conf`);
    const hostsLive = join(UNIT_DIR, `${unit}.d`, `${e.dropIn}-hosts`);
    const hosts = at(o, hostsLive);
    const env = existsSync(envPath) ? parseEnvFile(readFileSync(envPath, "utf8")) : {};
    if (existsSync(envPath) && unit === `agent-sudo-${e.env}.service`) act.file(envPath, readFileSync(envPath), 0o600, ROOT, " (kept; systemd reads it)");
    const pinned = new Map<string, string[]>();
    const allow = new Set<string>();
    const from: string[] = [];
    for (const key of e.keys) {
      const host = urlHost(env[key], key, envPath);
      if (!host) continue;
      const addrs = await resolveHost(host, key, envPath);
      const needed = e.env === "gateway" ? addrs.filter((a) => !inGatewayRanges(a)) : addrs;
      if (needed.length === 0) continue;
      for (const a of needed) allow.add(a);
      if (!isIP(host)) pinned.set(host, addrs);
      from.push(`${key} (${host})`);
    }
    if (allow.size === 0) {
      act.remove(conf, `${conf} (no destination outside the unit's own list in ${envPath})`);
      act.remove(hosts);
      continue;
    }
    const pin = e.pin && pinned.size > 0;
    const lines = [
      `# Written by \`agent-sudo install\` from ${from.join(", ")} in ${STATE_DIR}/${e.env}.env;`,
      "# run install again when the URL or the server's address changes. Do not edit.",
      "[Service]",
      `IPAddressAllow=${[...allow].join(" ")}`,
    ];
    if (pin) lines.push(`BindReadOnlyPaths=${hostsLive}:/etc/hosts`);
    act.dir(dir, 0o755, ROOT);
    act.file(conf, `${lines.join("\n")}\n`, 0o644, ROOT, `: IPAddressAllow=${[...allow].join(" ")}`);
    if (pin) {
      const text = ["# The unit's /etc/hosts (BindReadOnlyPaths=): its destinations as resolved at install time.", "127.0.0.1 localhost", "::1 localhost", ...[...pinned].flatMap(([h, addrs]) => addrs.map((a) => `${a} ${h}`))].join("\n");
      act.file(hosts, `${text}\n`, 0o644, ROOT, " (pinned addresses)");
    } else act.remove(hosts);
  }
}

function nextSteps(o: Options, say: Say): void {
  const r = o.root === "/" ? "" : o.root;
  say("");
  say("next steps (a person does these; install starts nothing):");
  if (!existsSync(at(o, "/usr/bin/node"))) say("  0. the units run /usr/bin/node (Node >= 20): install it there (Debian 13 `nodejs`, or NodeSource)");
  say(`  1. add a caller: TOKEN=$(openssl rand -hex 32); put {"name":"…","token_sha256":"$(printf %s "$TOKEN" | sha256sum | cut -d' ' -f1)"} into ${r}${STATE_DIR}/tokens.json`);
  say(`     the audit database and notifications: DATABASE_URL=… (and AGENT_SUDO_NTFY_URL=…) in ${r}${STATE_DIR}/gateway.env, AGENT_SUDO_NTFY_URL=… in ${r}${STATE_DIR}/breaker.env (0600 root), then install again: it allows the units exactly those hosts`);
  say(`  2. load the AppArmor profiles — on ${o.host === "server-01" ? "server-01 first in complain mode, read the log, then enforce" : "primary only after server-01 ran clean in enforce mode"}:`);
  say(`       apparmor_parser -r -W ${o.host === "server-01" ? "-C " : ""}${r}${PROFILE_DIR}/agent-sudo-*`);
  say("  3. systemctl daemon-reload && systemctl enable --now agent-sudo.target   (the services and the hourly rules-learn timer)");
  say(`  4. curl -s http://${HTTP.bind}:${HTTP.port}/health   (parallel run on ${HTTP.port}; the cutover to 8082 is a config.json edit)`);
  say("  the deployment table and the order of the rollout: systemd/README.md");
}

export async function installCommand(argv: string[]): Promise<number> {
  const o = parse(argv, true);
  const say: Say = (l) => process.stdout.write(`${l}\n`);
  if (!o.dryRun && !isRoot()) throw new Error("install must run as root (or try --dry-run)");
  const src = o.from ?? sourceRoot();
  const act = new Actions(o.dryRun, say);
  say(`agent-sudo install --host ${o.host}${o.dryRun ? " (dry run: nothing is changed)" : ""}${o.root !== "/" ? ` under ${o.root}` : ""}`);
  if (o.root !== "/") act.dir(o.root, 0o755, ROOT);
  installState(o, act, say);
  installCode(o, src, act);
  act.dir(at(o, UNIT_DIR), 0o755, ROOT);
  for (const n of deploymentFiles(src, "systemd")) act.file(at(o, join(UNIT_DIR, n)), rewritePrefix(readFileSync(join(src, "systemd", n), "utf8"), o.prefix), 0o644, ROOT);
  await installNetworkDropIns(o, act);
  act.dir(at(o, PROFILE_DIR), 0o755, ROOT);
  for (const n of deploymentFiles(src, "apparmor")) act.file(at(o, join(PROFILE_DIR, n)), rewritePrefix(readFileSync(join(src, "apparmor", n), "utf8"), o.prefix), 0o644, ROOT);
  say(act.changed === 0 ? `nothing to do: all ${act.unchanged} actions unchanged` : `${act.changed} ${o.dryRun ? "would change" : "changed"}, ${act.unchanged} unchanged`);
  nextSteps(o, say);
  return 0;
}

/** Refuses to pull files from under running units or loaded profiles on the live system. */
function checkStopped(o: Options, src: string): void {
  if (o.root !== "/") return;
  const units = deploymentFiles(src, "systemd");
  if (existsSync("/run/systemd/system")) {
    const active = units.filter((u) => {
      try {
        execFileSync("systemctl", ["is-active", "--quiet", u], { stdio: "ignore" });
        return true;
      } catch {
        return false;
      }
    });
    if (active.length) throw new Error(`still running: ${active.join(", ")}; first: systemctl disable --now agent-sudo.target`);
  }
  const loaded = "/sys/kernel/security/apparmor/profiles";
  if (existsSync(loaded) && /^agent-sudo-/m.test(readFileSync(loaded, "utf8"))) {
    throw new Error(`AppArmor profiles still loaded; first: apparmor_parser -R ${PROFILE_DIR}/agent-sudo-*`);
  }
}

export async function uninstallCommand(argv: string[]): Promise<number> {
  const o = parse(argv, false);
  const say: Say = (l) => process.stdout.write(`${l}\n`);
  if (!o.dryRun && !isRoot()) throw new Error("uninstall must run as root (or try --dry-run)");
  const src = o.from ?? sourceRoot();
  checkStopped(o, src);
  const act = new Actions(o.dryRun, say);
  say(`agent-sudo uninstall${o.purge ? " --purge" : ""}${o.dryRun ? " (dry run: nothing is changed)" : ""}${o.root !== "/" ? ` under ${o.root}` : ""}`);
  const units = deploymentFiles(src, "systemd");
  for (const n of units) {
    act.remove(at(o, join(UNIT_DIR, n)));
    act.remove(at(o, join(UNIT_DIR, `${n}.d`)));
    act.remove(at(o, join(UNIT_DIR, `${n}.wants`)));
    for (const wants of ["multi-user.target.wants", "agent-sudo.target.wants"]) act.remove(at(o, join(UNIT_DIR, wants, n)));
  }
  for (const n of deploymentFiles(src, "apparmor")) act.remove(at(o, join(PROFILE_DIR, n)));
  const prefix = at(o, o.prefix);
  if (src !== prefix && existsSync(join(prefix, MANIFEST))) {
    const paths = readManifest(prefix);
    act.step("remove", `the ${paths.length} installed paths under ${prefix}`, true, () => {
      removeListed(prefix, [...paths, MANIFEST]);
      pruneEmpty(prefix);
    });
  }
  const home = at(o, STATE_DIR);
  if (o.purge) {
    const users = loadConfig(home).users;
    act.remove(home, `${home}/ (keys, tokens, journal, audit spool, proposals)`);
    for (const user of [...Object.values(users), LEARNER.user]) {
      if (lookupUser(user)) act.step("userdel", `system user ${user}`, true, () => execFileSync("userdel", [user], { stdio: "pipe" }));
    }
  } else if (existsSync(home)) {
    say(`  kept       ${home} and the service users (keys, tokens, journal, audit spool; --purge removes them)`);
  }
  say(act.changed === 0 ? "nothing to do: not installed" : `${act.changed} ${o.dryRun ? "would change" : "changed"}`);
  if (o.root === "/" && !o.dryRun) say("then: systemctl daemon-reload");
  return 0;
}


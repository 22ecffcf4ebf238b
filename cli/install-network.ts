// `agent-sudo install`, the network drop-ins: a unit that must reach a
// destination its environment file names (ntfy, the audit database) gets a
// drop-in allowing exactly those addresses (IPAddressAllow=), resolved at
// install time; the breaker, which gets no DNS, also gets an /etc/hosts of
// its own pinning them.
import { lookup } from "node:dns/promises";
import { existsSync, readFileSync } from "node:fs";
import { isIP } from "node:net";
import { join } from "node:path";
import { type Actions, at, type Options, ROOT, STATE_DIR, UNIT_DIR } from "./install-plan.js";
import { LEARNER } from "./install-units.js";

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
    throw new Error(
      `cannot resolve ${host} (${key} in ${file}): ${(err as Error).message}; the unit's IPAddressAllow= needs its addresses`,
    );
  }
}

/**
 * The breaker's (and, when needed, the gateway's) drop-in that lets the unit
 * reach exactly the destinations its environment file names. Rewritten on
 * every install; removed when the file no longer names one.
 */
export async function installNetworkDropIns(o: Options, act: Actions): Promise<void> {
  const home = at(o, STATE_DIR);
  for (const e of ENV_FILES) {
    const envPath = join(home, `${e.env}.env`);
    const unit = e.unit;
    const dir = at(o, join(UNIT_DIR, `${unit}.d`));
    const conf = join(dir, `${e.dropIn}.conf`);
    const hostsLive = join(UNIT_DIR, `${unit}.d`, `${e.dropIn}-hosts`);
    const hosts = at(o, hostsLive);
    const env = existsSync(envPath) ? parseEnvFile(readFileSync(envPath, "utf8")) : {};
    if (existsSync(envPath) && unit === `agent-sudo-${e.env}.service`)
      act.file(envPath, readFileSync(envPath), 0o600, ROOT, " (kept; systemd reads it)");
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
      const text = [
        "# The unit's /etc/hosts (BindReadOnlyPaths=): its destinations as resolved at install time.",
        "127.0.0.1 localhost",
        "::1 localhost",
        ...[...pinned].flatMap(([h, addrs]) => addrs.map((a) => `${a} ${h}`)),
      ].join("\n");
      act.file(hosts, `${text}\n`, 0o644, ROOT, " (pinned addresses)");
    } else act.remove(hosts);
  }
}

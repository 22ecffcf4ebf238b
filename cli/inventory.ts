// `agent-sudo inventory > host.json`: the read-only inventory a mirror is
// built from (seed D1, the command surface): packages, users, groups, the
// structure of sudoers (who has rules, what is included — never rule text
// or anything secret), and the directory skeleton of configured roots
// (directories only: no file names below them, no content). Reads only.
import { execFileSync } from "node:child_process";
import { existsSync, lstatSync, readdirSync, readFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../services/shared/config.js";
import { DEFAULT_MASKS } from "../services/sandbox/settings.js";
import { globPrefixRe } from "../services/sandbox/mounts.js";

const USAGE = "usage: agent-sudo inventory [--root DIR]... [--depth N]   (writes JSON to stdout)";
const DEFAULT_ROOTS = ["/etc", "/opt", "/srv", "/data"];

interface Dir {
  path: string;
  mode: string;
  owner: number;
  group: number;
}

function packages(): { name: string; version: string; state: string }[] {
  const out = execFileSync("dpkg-query", ["-W", "-f=${Package}\t${Version}\t${Status}\n"], {
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  return out
    .split("\n")
    .filter(Boolean)
    .map((l) => l.split("\t"))
    .filter((f) => (f[2] ?? "").startsWith("install ok"))
    .map(([name, version]) => ({ name: name ?? "", version: version ?? "", state: "install" }));
}

function table(path: string): string[][] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l && !l.startsWith("#"))
    .map((l) => l.split(":"));
}

function sudoers(): { file: string; mode: string; subjects: string[]; includes: string[] }[] {
  const files = ["/etc/sudoers"];
  if (existsSync("/etc/sudoers.d"))
    files.push(
      ...readdirSync("/etc/sudoers.d")
        .sort()
        .map((f) => join("/etc/sudoers.d", f)),
    );
  const out = [];
  for (const file of files) {
    let text = "";
    try {
      text = readFileSync(file, "utf8");
    } catch {
      continue;
    }
    const subjects = new Set<string>();
    const includes: string[] = [];
    for (const raw of text.split("\n")) {
      const line = raw.trim();
      const inc = /^[@#]include(dir)?\s+(\S+)/.exec(line);
      if (inc?.[2]) includes.push(inc[2]);
      if (!line || line.startsWith("#") || line.startsWith("@") || /^Defaults/.test(line) || /^\w+_Alias/.test(line)) continue;
      const subject = line.split(/\s+/)[0];
      if (subject) subjects.add(subject);
    }
    out.push({ file, mode: (lstatSync(file).mode & 0o7777).toString(8), subjects: [...subjects], includes });
  }
  return out;
}

function skeleton(roots: string[], depth: number): Dir[] {
  const masks = DEFAULT_MASKS.map(globPrefixRe);
  const dirs: Dir[] = [];
  const walk = (path: string, left: number) => {
    if (masks.some((re) => re.test(path))) return;
    let st;
    try {
      st = lstatSync(path);
    } catch {
      return;
    }
    if (!st.isDirectory()) return;
    dirs.push({ path, mode: (st.mode & 0o7777).toString(8), owner: st.uid, group: st.gid });
    if (left === 0) return;
    let names: string[] = [];
    try {
      names = readdirSync(path).sort();
    } catch {
      return;
    }
    for (const n of names) walk(join(path, n), left - 1);
  };
  for (const r of roots) walk(r, depth);
  return dirs;
}

export async function inventoryCommand(argv: string[]): Promise<number> {
  const roots: string[] = [];
  let depth = 3;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--root" && argv[i + 1]?.startsWith("/")) roots.push(argv[++i] as string);
    else if (a === "--depth" && /^\d+$/.test(argv[i + 1] ?? "")) depth = Number(argv[++i]);
    else {
      process.stderr.write(`${USAGE}\n`);
      return 2;
    }
  }
  const config = loadConfig();
  const inventory = {
    version: 1,
    host_id: config.host_id,
    hostname: hostname(),
    taken_at: new Date().toISOString(),
    os_release: Object.fromEntries(
      readFileSync("/etc/os-release", "utf8")
        .split("\n")
        .filter((l) => l.includes("="))
        .map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1).replace(/^"|"$/g, "")]),
    ),
    packages: packages(),
    users: table("/etc/passwd").map((f) => ({ name: f[0], uid: Number(f[2]), gid: Number(f[3]), home: f[5], shell: f[6] })),
    groups: table("/etc/group").map((f) => ({ name: f[0], gid: Number(f[2]), members: (f[3] ?? "").split(",").filter(Boolean) })),
    sudoers: sudoers(),
    directories: skeleton(roots.length > 0 ? roots : DEFAULT_ROOTS, depth),
  };
  process.stdout.write(`${JSON.stringify(inventory, null, 2)}\n`);
  return 0;
}

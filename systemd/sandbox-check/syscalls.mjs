// Prints the x86-64 numbers of the system calls in systemd's filter groups
// (`node syscalls.mjs @system-service @mount`), for seccomp-allow.c.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
const groups = new Map();
let cur;
for (const line of execFileSync("systemd-analyze", ["syscall-filter", "--no-pager"], {
  encoding: "utf8",
  stdio: ["ignore", "pipe", "ignore"],
}).split("\n")) {
  if (/^@\S+$/.test(line)) {
    cur = line;
    groups.set(cur, []);
    continue;
  }
  const m = /^\s+([-@a-z0-9_]+)$/.exec(line);
  if (m && cur) groups.get(cur).push(m[1]);
}
const names = new Set();
const expand = (g) => {
  for (const x of groups.get(g) ?? []) x.startsWith("@") ? expand(x) : names.add(x);
};
for (const a of process.argv.slice(2)) a.startsWith("@") ? expand(a) : names.add(a);
const nr = new Map();
for (const l of readFileSync("/usr/include/x86_64-linux-gnu/asm/unistd_64.h", "utf8").split("\n")) {
  const m = /^#define __NR_(\w+) (\d+)$/.exec(l);
  if (m) nr.set(m[1], Number(m[2]));
}
process.stdout.write(
  [...names]
    .filter((s) => nr.has(s))
    .map((s) => nr.get(s))
    .sort((a, b) => a - b)
    .join(","),
);

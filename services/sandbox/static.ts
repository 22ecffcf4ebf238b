// Static validation, beside the trial: shellcheck on the command text
// (error-level findings make the trial not ok; warnings are reported), and
// writes the command text names into forbidden or masked paths (not ok).
// The trial's own evidence (touched paths, writes into masks) is checked in
// report.ts; this catches what the text says even when the run did not get
// that far.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { globPrefixRe, isUnder } from "./mounts.js";
import { basename, effectiveWords, simpleCommands } from "./words.js";
import { findProgram, pathDirs } from "../shared/programs.js";

export interface StaticResult {
  errors: string[];
  warnings: string[];
}

interface ShellcheckComment {
  line: number;
  column: number;
  level: string;
  code: number;
  message: string;
}

/**
 * Runs shellcheck (bash dialect) on the text. Where shellcheck is not
 * installed (ENOENT: a fresh Debian has none), the text is still parsed by
 * `bash -n` — a syntax error fails the trial — and a warning says that only
 * syntax was checked. A shellcheck that is there but breaks is an error
 * (fail closed).
 */
export function shellcheck(command: string, bin = "shellcheck"): Promise<StaticResult> {
  const path = bin.includes("/") ? bin : onPath(bin);
  if (path === undefined || (bin.includes("/") && !existsSync(bin))) return syntaxOnly(command);
  return new Promise((resolve) => {
    const child = spawn(path, ["--shell=bash", "--format=json1", "-"], { stdio: ["pipe", "pipe", "pipe"] });
    const out: Buffer[] = [];
    child.stdout.on("data", (c: Buffer) => out.push(c));
    child.stderr.resume();
    child.stdin.on("error", () => undefined);
    let failed = false;
    child.once("error", (err) => {
      failed = true;
      resolve({ errors: [`shellcheck could not run: ${err.message}`], warnings: [] });
    });
    child.once("close", (code) => {
      if (failed) return; // never started: the error handler answers
      if (code !== 0 && code !== 1) {
        resolve({ errors: [`shellcheck failed (exit ${code})`], warnings: [] });
        return;
      }
      try {
        const parsed = JSON.parse(Buffer.concat(out).toString("utf8")) as { comments: ShellcheckComment[] };
        const text = (c: ShellcheckComment) => `shellcheck SC${c.code} (${c.level}) line ${c.line} col ${c.column}: ${c.message}`;
        resolve({
          errors: parsed.comments.filter((c) => c.level === "error").map(text),
          warnings: parsed.comments.filter((c) => c.level === "warning").map(text),
        });
      } catch {
        resolve({ errors: ["shellcheck output was not JSON"], warnings: [] });
      }
    });
    child.stdin.end(command);
  });
}

/** `name` in a PATH directory, or in the system's (a service's PATH may hold directories it cannot search). */
function onPath(name: string): string | undefined {
  return findProgram(name, [...pathDirs(), "/usr/local/bin", "/usr/bin", "/bin"]);
}

const NO_SHELLCHECK = "shellcheck is not installed: only bash -n syntax was checked (apt-get install shellcheck)";

/** `bash -n` on the text read from stdin: parses, runs nothing. */
function syntaxOnly(command: string): Promise<StaticResult> {
  return new Promise((resolve) => {
    const child = spawn("bash", ["-n"], { stdio: ["pipe", "ignore", "pipe"], env: { PATH: "/usr/bin:/bin" } });
    const err: Buffer[] = [];
    child.stderr.on("data", (c: Buffer) => err.push(c));
    child.stdin.on("error", () => undefined);
    child.once("error", (e) => resolve({ errors: [`neither shellcheck nor bash -n could run: ${e.message}`], warnings: [] }));
    child.once("close", (code) => {
      if (code === 0) resolve({ errors: [], warnings: [NO_SHELLCHECK] });
      else {
        const first = Buffer.concat(err).toString("utf8").trim().split("\n")[0] ?? "";
        resolve({
          errors: [`bash -n: syntax error (exit ${code}): ${first.replace(/^bash: /, "").slice(0, 300)}`],
          warnings: [NO_SHELLCHECK],
        });
      }
    });
    child.stdin.end(command);
  });
}

/** Commands whose path arguments they change. */
const WRITERS = new Set([
  "cp",
  "mv",
  "rm",
  "rmdir",
  "ln",
  "install",
  "touch",
  "mkdir",
  "chmod",
  "chown",
  "chgrp",
  "truncate",
  "tee",
  "unlink",
  "shred",
  "rsync",
  "setfacl",
  "setfattr",
  "chattr",
  "mkfifo",
  "mknod",
  "patch",
  "visudo",
  "crontab",
  "useradd",
  "usermod",
  "passwd",
  "chpasswd",
]);

/** Paths the text writes into that are forbidden or masked. */
export function forbiddenWrites(command: string, forbidden: readonly string[], masks: readonly string[]): string[] {
  const targets: string[] = [];
  for (const c of simpleCommands(command)) {
    targets.push(...c.writes);
    const w = effectiveWords(c.words);
    const name = basename(w[0] ?? "");
    const args = w.slice(1);
    if (WRITERS.has(name) || (name === "sed" && args.some((a) => /^-[a-zA-Z]*i/.test(a) || a.startsWith("--in-place")))) {
      targets.push(...args.filter((a) => a.startsWith("/")));
    }
    if (name === "dd") targets.push(...args.filter((a) => a.startsWith("of=")).map((a) => a.slice(3)));
    if (name === "passwd" || name === "chpasswd") targets.push("/etc/shadow");
  }
  const maskRes = masks.map(globPrefixRe);
  const hits = targets.filter((t) => t.startsWith("/") && (forbidden.some((f) => isUnder(t, f)) || maskRes.some((re) => re.test(t))));
  return [...new Set(hits)];
}

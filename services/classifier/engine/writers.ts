// Which arguments a program writes, deletes or re-permissions. Generic
// knowledge of common tools' argument shapes (rm deletes every operand, cp
// writes its last, chmod skips its mode …); the effect analysis then judges
// each target's place.
import type { Word } from "./types.js";

export type Mode = "write" | "delete" | "tree" | "perm" | "perm-tree";

export interface Target {
  word: Word;
  mode: Mode;
  /** No option named it: the program is assumed to write where it runs. */
  implicit?: boolean;
}

interface Args {
  positional: Word[];
  flags: string[];
  values: Map<string, Word>;
}

/** Split options from operands; `valueOpts` lists options that consume the next word. */
export function splitArgs(args: readonly Word[], valueOpts: ReadonlySet<string> = new Set()): Args {
  const out: Args = { positional: [], flags: [], values: new Map() };
  let opts = true;
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as Word;
    const t = w.text;
    if (opts && t === "--") {
      opts = false;
    } else if (opts && t.length > 1 && t.startsWith("-") && !w.dynamic) {
      const eq = t.indexOf("=");
      if (t.startsWith("--") && eq > 0) {
        out.flags.push(t.slice(0, eq));
        out.values.set(t.slice(0, eq), { ...w, text: t.slice(eq + 1) });
      } else {
        out.flags.push(t);
        const next = args[i + 1];
        if (valueOpts.has(t) && next) {
          out.values.set(t, next);
          i++;
        }
      }
    } else out.positional.push(w);
  }
  return out;
}

const hasShort = (flags: string[], letters: RegExp): boolean =>
  flags.some((f) => !f.startsWith("--") && letters.test(f.slice(1)));

const recursive = (a: Args): boolean => hasShort(a.flags, /[rR]/) || a.flags.includes("--recursive");

const all = (ws: Word[], mode: Mode): Target[] => ws.map((word) => ({ word, mode }));
const cwd = (): Word => ({ text: ".", dynamic: false, glob: false, confusable: false });

type Spec = (args: readonly Word[]) => Target[];

function deleter(args: readonly Word[]): Target[] {
  const a = splitArgs(args);
  return all(a.positional, recursive(a) ? "tree" : "delete");
}

function lastWritten(valueOpts: string[], dirOpt: string[]): Spec {
  return (args) => {
    const a = splitArgs(args, new Set([...valueOpts, ...dirOpt]));
    for (const o of dirOpt) {
      const v = a.values.get(o);
      if (v) return [{ word: v, mode: "write" }];
    }
    const last = a.positional[a.positional.length - 1];
    const mode: Mode = a.flags.includes("--delete") || a.flags.some((f) => f.startsWith("--delete")) ? "tree" : "write";
    if (a.positional.length === 1 && last) return [{ word: cwd(), mode }];
    return last ? [{ word: last, mode }] : [];
  };
}

function permission(args: readonly Word[]): Target[] {
  const a = splitArgs(args, new Set(["--reference"]));
  const operands = a.values.has("--reference") ? a.positional : a.positional.slice(1);
  return all(operands, recursive(a) ? "perm-tree" : "perm");
}

function inPlace(args: readonly Word[]): Target[] {
  const a = splitArgs(args, new Set(["-e", "-f", "--expression", "--file", "-l"]));
  if (!a.flags.some((f) => f === "-i" || f.startsWith("--in-place") || (/^-[a-zA-Z]*i/.test(f) && !f.startsWith("--")))) return [];
  const scripted = a.values.has("-e") || a.values.has("-f") || a.values.has("--expression") || a.values.has("--file");
  return all(scripted ? a.positional : a.positional.slice(1), "write");
}

function valueOf(opts: string[], fallbackCwd: boolean): Spec {
  return (args) => {
    const a = splitArgs(args, new Set(opts));
    for (const o of opts) {
      const v = a.values.get(o);
      if (v) return [{ word: v, mode: "write" }];
    }
    return fallbackCwd ? [{ word: cwd(), mode: "write", implicit: true }] : [];
  };
}

function tar(args: readonly Word[]): Target[] {
  const a = splitArgs(args, new Set(["-f", "--file", "-C", "--directory", "-T", "-X", "--exclude"]));
  const mode = a.flags.find((f) => !f.startsWith("--"))?.slice(1) ?? a.positional[0]?.text ?? "";
  if (/[xX]/.test(mode) || a.flags.includes("--extract") || a.flags.includes("--get")) {
    return [{ word: a.values.get("-C") ?? a.values.get("--directory") ?? cwd(), mode: "write" }];
  }
  if (/[cru]/.test(mode) || a.flags.includes("--create") || a.flags.includes("--append")) {
    const f = a.values.get("-f") ?? a.values.get("--file");
    return f ? [{ word: f, mode: "write" }] : [];
  }
  return [];
}

function dd(args: readonly Word[]): Target[] {
  return args.filter((w) => w.text.startsWith("of=")).map((w) => ({ word: { ...w, text: w.text.slice(3) }, mode: "write" as Mode }));
}

function compressor(args: readonly Word[]): Target[] {
  const a = splitArgs(args, new Set(["-S", "--suffix"]));
  if (hasShort(a.flags, /[ctl]/) || a.flags.includes("--stdout") || a.flags.includes("--list") || a.flags.includes("--test")) return [];
  return all(a.positional, "write");
}

function findTargets(args: readonly Word[]): Target[] {
  const out: Target[] = [];
  const roots: Word[] = [];
  let inExpr = false;
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as Word;
    if (!inExpr && !/^[-!(]/.test(w.text)) roots.push(w);
    else inExpr = true;
    if (/^-fprint[f0]?$|^-fls$/.test(w.text) && args[i + 1]) out.push({ word: args[i + 1] as Word, mode: "write" });
  }
  if (args.some((w) => w.text === "-delete")) {
    const filtered = args.some((w) => /^-(i?name|i?path|type|mtime|mmin|atime|amin|ctime|cmin|newer|size|empty|user|group|perm|regex|iregex|wholename|links|inum|samefile)$/.test(w.text));
    const starts = roots.length ? roots : [cwd()];
    if (filtered) out.push(...starts.map((r) => ({ word: { ...r, text: `${r.text.replace(/\/+$/, "")}/{}`, glob: true }, mode: "delete" as Mode })));
    else out.push(...all(starts, "tree"));
  }
  return out;
}

const SPECS: Record<string, Spec> = {
  rm: deleter, rmdir: deleter, unlink: deleter, shred: deleter, srm: deleter, wipe: deleter,
  touch: (a) => all(splitArgs(a, new Set(["-d", "-r", "-t", "--reference", "--date"])).positional, "write"),
  mkdir: (a) => all(splitArgs(a, new Set(["-m", "--mode", "-Z"])).positional, "write"),
  mkfifo: (a) => all(splitArgs(a, new Set(["-m"])).positional, "write"),
  truncate: (a) => all(splitArgs(a, new Set(["-s", "--size", "-r", "--reference"])).positional, "write"),
  tee: (a) => all(splitArgs(a).positional, "write"),
  cp: lastWritten(["-S", "--suffix"], ["-t", "--target-directory"]),
  install: lastWritten(["-m", "--mode", "-o", "--owner", "-g", "--group", "-S"], ["-t", "--target-directory"]),
  ln: lastWritten(["-S", "--suffix"], ["-t", "--target-directory"]),
  rsync: lastWritten(["-e", "--rsh", "--exclude", "--include", "--exclude-from", "--include-from", "--filter", "-f", "--chmod", "--chown"], []),
  scp: lastWritten(["-P", "-i", "-o", "-F", "-c", "-l", "-J", "-S"], []),
  mv: (a) => {
    const s = splitArgs(a, new Set(["-S", "--suffix", "-t", "--target-directory"]));
    const t = s.values.get("-t") ?? s.values.get("--target-directory");
    if (t) return [...all(s.positional, "tree"), { word: t, mode: "write" as Mode }];
    const dest = s.positional[s.positional.length - 1];
    return [...all(s.positional.slice(0, -1), "tree"), ...(dest ? [{ word: dest, mode: "write" as Mode }] : [])];
  },
  chmod: permission, chown: permission, chgrp: permission, chattr: permission, setfacl: permission,
  sed: inPlace, perl: inPlace,
  dd,
  sort: valueOf(["-o", "--output"], false),
  uniq: (a) => all(splitArgs(a, new Set(["-f", "-s", "-w"])).positional.slice(1, 2), "write"),
  tar,
  unzip: valueOf(["-d"], true),
  gzip: compressor, gunzip: compressor, bzip2: compressor, bunzip2: compressor, xz: compressor, unxz: compressor, zstd: compressor, unzstd: compressor,
  curl: (a) => {
    const s = splitArgs(a, new Set(["-o", "--output", "-d", "--data", "-H", "--header", "-X", "-u", "-F", "-T", "-A", "-e", "-b", "-c", "--output-dir", "-w", "-m", "--max-time", "--connect-timeout", "-K", "--retry", "-x", "--proxy"]));
    const o = s.values.get("-o") ?? s.values.get("--output");
    const c = s.values.get("-c") ?? s.values.get("--cookie-jar");
    const out: Target[] = [];
    if (o) out.push({ word: o, mode: "write" });
    if (c) out.push({ word: c, mode: "write" });
    if (hasShort(s.flags, /O/) || s.flags.includes("--remote-name")) out.push({ word: s.values.get("--output-dir") ?? cwd(), mode: "write" });
    return out;
  },
  wget: (a) => {
    const s = splitArgs(a, new Set(["-O", "--output-document", "-P", "--directory-prefix", "-o", "-a", "-U", "--header", "-t", "-T", "-e"]));
    const o = s.values.get("-O") ?? s.values.get("--output-document") ?? s.values.get("-P") ?? s.values.get("--directory-prefix");
    return [{ word: o ?? cwd(), mode: "write" }];
  },
  find: findTargets,
  zip: (a) => all(splitArgs(a, new Set(["-b", "-n", "-t", "-tt", "-x", "-i", "-P"])).positional.slice(0, 1), "write"),
  vim: (a) => all(splitArgs(a, new Set(["-c", "-S", "-u", "-i"])).positional, "write"),
  vi: (a) => all(splitArgs(a, new Set(["-c", "-S", "-u"])).positional, "write"),
  nvim: (a) => all(splitArgs(a, new Set(["-c", "-S", "-u"])).positional, "write"),
  nano: (a) => all(splitArgs(a).positional, "write"),
  emacs: (a) => all(splitArgs(a).positional, "write"),
  micro: (a) => all(splitArgs(a).positional, "write"),
  code: (a) => all(splitArgs(a).positional, "write"),
  git: (args) => {
    // Output options name a file written even by a read verb; -C/--git-dir/
    // --work-tree only say where the verb works (a write only for write verbs).
    const out = valueOf(["--output", "--output-directory", "-o"], false)(args);
    if (out.length) return out;
    return valueOf(["-C", "--git-dir", "--work-tree"], true)(args).map((t) => ({ ...t, implicit: true }));
  },
  xxd: (a) => all(splitArgs(a, new Set(["-c", "-g", "-l", "-s", "-o", "-n"])).positional.slice(1, 2), "write"),
  iconv: valueOf(["-o", "--output"], false),
  // openssl's subcommands (rand, req, genpkey, x509, enc …) write -out.
  openssl: valueOf(["-out", "-keyout"], false),
  // split writes PREFIXaa, PREFIXab … next to the prefix (the operand after the input).
  split: (a) => all(splitArgs(a, new Set(["-b", "-l", "-n", "-C", "-a", "--additional-suffix", "--filter", "-t"])).positional.slice(1, 2), "write"),
  sdiff: valueOf(["-o", "--output"], false),
  // journalctl's maintenance options delete or rotate the journal.
  journalctl: (a) =>
    a.some((w) => /^--(vacuum-(size|time|files)|rotate|flush|relinquish-var|setup-keys)\b/.test(w.text)) ? [{ word: { text: "/var/log/journal", dynamic: false, glob: false, confusable: false }, mode: "delete" }] : [],
  make: valueOf(["-C", "--directory", "-f", "--file"], true),
  npm: valueOf(["--prefix", "-C"], true),
  patch: valueOf(["-d", "--directory", "-o", "--output"], true),
};

/** The targets a program writes; null when the program has no known argument shape. */
export function targetsOf(name: string, args: readonly Word[]): Target[] | null {
  const spec = SPECS[name];
  return spec ? spec(args) : null;
}

/** The target of a working-directory writer (build tools, package managers run in place). */
export function cwdTarget(): Target {
  return { word: cwd(), mode: "write" };
}

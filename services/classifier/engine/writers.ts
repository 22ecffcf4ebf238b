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
  /** The content is moved elsewhere, not destroyed (mv's sources). */
  keeps?: boolean;
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

/**
 * GNU getopt_long accepts any unambiguous prefix of a long option (`--rec` for
 * `--recursive`, `--no-pres` for `--no-preserve-root`): spell them out in full
 * so later checks see the real option. `longs` lists the program's long options.
 */
export function expandLong(args: readonly Word[], longs: readonly string[]): Word[] {
  const out: Word[] = [];
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as Word;
    if (w.text === "--") {
      out.push(...args.slice(i));
      break;
    }
    if (!w.text.startsWith("--") || w.dynamic) {
      out.push(w);
      continue;
    }
    const eq = w.text.indexOf("=");
    const name = eq < 0 ? w.text : w.text.slice(0, eq);
    const hits = longs.filter((l) => l.startsWith(name));
    const full = longs.includes(name) ? name : hits.length === 1 ? (hits[0] as string) : name;
    out.push({ ...w, text: full + (eq < 0 ? "" : w.text.slice(eq)) });
  }
  return out;
}

/**
 * Every value of an option that may be repeated: `-e V`, `-eV`, `-neV` (after
 * flag letters in `bundle`), `--long V`, `--long=V`. splitArgs keeps only the last.
 */
export function allValues(args: readonly Word[], shorts: string, longs: readonly string[], bundle = ""): Word[] {
  const out: Word[] = [];
  const short = shorts ? new RegExp(`^-${bundle ? `[${bundle}]*` : ""}[${shorts}](.*)$`, "s") : null;
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as Word;
    const t = w.text;
    if (t === "--") break;
    if (t.startsWith("--")) {
      const eq = t.indexOf("=");
      const name = eq < 0 ? t : t.slice(0, eq);
      if (!longs.includes(name)) continue;
      if (eq >= 0) out.push({ ...w, text: t.slice(eq + 1) });
      else if (args[i + 1]) out.push(args[++i] as Word);
      continue;
    }
    const m = short?.exec(t);
    if (!m) continue;
    if (m[1]) out.push({ ...w, text: m[1] });
    else if (args[i + 1]) out.push(args[++i] as Word);
  }
  return out;
}

const hasShort = (flags: string[], letters: RegExp): boolean => flags.some((f) => !f.startsWith("--") && letters.test(f.slice(1)));

const recursive = (a: Args): boolean => hasShort(a.flags, /[rR]/) || a.flags.includes("--recursive");

const all = (ws: Word[], mode: Mode): Target[] => ws.map((word) => ({ word, mode }));
const cwd = (): Word => ({ text: ".", dynamic: false, glob: false, confusable: false });

type Spec = (args: readonly Word[]) => Target[];

const RM_LONGS = [
  "--recursive",
  "--force",
  "--interactive",
  "--one-file-system",
  "--no-preserve-root",
  "--preserve-root",
  "--dir",
  "--verbose",
  "--help",
  "--version",
];

function deleter(args: readonly Word[]): Target[] {
  const a = splitArgs(expandLong(args, RM_LONGS));
  return all(a.positional, recursive(a) ? "tree" : "delete");
}

const lit = (text: string): Word => ({ text, dynamic: false, glob: false, confusable: false });

/** What `cp SRC DIR/` writes: DIR/basename(SRC) (any name when SRC is computed). */
function into(dir: Word, src: Word, remoteSrc: boolean): Target | null {
  let path = remoteSrc ? src.text.replace(/^[^/:]+:/, "") : src.text;
  if (/\/$/.test(path) && path !== "/") path = path.replace(/\/+$/, "");
  const base = path.split("/").pop() ?? "";
  if (base === "" || base === "." || base === ".." || dir.dynamic) return null;
  const text = `${dir.text.replace(/\/+$/, "")}/${src.dynamic ? "*" : base}`;
  return { word: { ...dir, text, glob: dir.glob || src.glob || src.dynamic }, mode: "write" };
}

/**
 * Copy-like programs: the last operand (or -t DIR) is written; when it is a
 * directory the file written is DIR/basename(SRC), so that path is a target too.
 */
function lastWritten(valueOpts: string[], dirOpt: string[], longs: string[] = [], remote = false): Spec {
  return (raw) => {
    const args = expandLong(raw, longs);
    const a = splitArgs(args, new Set([...valueOpts, ...dirOpt]));
    const noDir = a.flags.includes("--no-target-directory") || hasShort(a.flags, /T/);
    const contents = (w: Word) => remote && /\/$/.test(w.text);
    const dirs = dirOpt.flatMap((o) =>
      o.startsWith("--") ? allValues(args, "", [o]) : allValues(args, o.slice(1), [], "abdfHilLnPpRrsuvx"),
    );
    if (dirs.length)
      return dirs.flatMap((d) => [
        { word: d, mode: "write" as Mode },
        ...a.positional.map((s) => into(d, s, remote)).filter((t): t is Target => t !== null),
      ]);
    const last = a.positional[a.positional.length - 1];
    const mode: Mode = a.flags.includes("--delete") || a.flags.some((f) => f.startsWith("--delete")) ? "tree" : "write";
    if (a.positional.length === 1 && last)
      return [{ word: cwd(), mode }, ...[into(cwd(), last, remote)].filter((t): t is Target => t !== null && !contents(last))];
    if (!last) return [];
    const sources = noDir ? [] : a.positional.slice(0, -1).filter((w) => !contents(w));
    return [{ word: last, mode }, ...sources.map((s) => into(last, s, remote)).filter((t): t is Target => t !== null)];
  };
}

const PERM_LONGS = [
  "--recursive",
  "--reference",
  "--changes",
  "--silent",
  "--quiet",
  "--verbose",
  "--no-preserve-root",
  "--preserve-root",
  "--dereference",
  "--no-dereference",
  "--from",
  "--help",
  "--version",
];

function permission(args: readonly Word[]): Target[] {
  const a = splitArgs(expandLong(args, PERM_LONGS), new Set(["--reference"]));
  const operands = a.values.has("--reference") ? a.positional : a.positional.slice(1);
  return all(operands, recursive(a) ? "perm-tree" : "perm");
}

function inPlace(args: readonly Word[]): Target[] {
  const a = splitArgs(args, new Set(["-e", "-f", "--expression", "--file", "-l"]));
  if (!a.flags.some((f) => f === "-i" || f.startsWith("--in-place") || (/^-[a-zA-Z]*i/.test(f) && !f.startsWith("--")))) return [];
  const scripted = a.values.has("-e") || a.values.has("-f") || a.values.has("--expression") || a.values.has("--file");
  return all(scripted ? a.positional : a.positional.slice(1), "write");
}

const SED_LONGS = [
  "--expression",
  "--file",
  "--in-place",
  "--line-length",
  "--quiet",
  "--silent",
  "--regexp-extended",
  "--separate",
  "--sandbox",
  "--debug",
  "--posix",
  "--unbuffered",
  "--follow-symlinks",
  "--null-data",
  "--zero-terminated",
  "--binary",
  "--help",
  "--version",
];

/** sed's command line: its scripts (-e, --expression, or the first operand), its input files, -i, and -f script files. */
export function sedArgs(raw: readonly Word[]): { scripts: Word[]; operands: Word[]; inPlace: boolean; fromFile: boolean } {
  const args = expandLong(raw, SED_LONGS);
  const scripts: Word[] = [];
  const operands: Word[] = [];
  let inPlace = false;
  let fromFile = false;
  let opts = true;
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as Word;
    const t = w.text;
    if (!opts || w.dynamic || t === "-" || !t.startsWith("-")) {
      operands.push(w);
      continue;
    }
    if (t === "--") {
      opts = false;
      continue;
    }
    if (t.startsWith("--")) {
      const eq = t.indexOf("=");
      const name = eq < 0 ? t : t.slice(0, eq);
      const value = eq < 0 ? undefined : { ...w, text: t.slice(eq + 1) };
      if (name === "--expression") {
        const v = value ?? args[++i];
        if (v) scripts.push(v);
      } else if (name === "--file") {
        fromFile = true;
        if (!value) i++;
      } else if (name === "--line-length" && !value) i++;
      else if (name === "--in-place") inPlace = true;
      continue;
    }
    // A cluster of short flags; -i takes a glued suffix, -e/-f/-l a glued or separate value.
    for (let k = 1; k < t.length; k++) {
      const c = t[k];
      if (c === "i") {
        inPlace = true;
        break;
      }
      if (c === "e" || c === "f" || c === "l") {
        const v = t.length > k + 1 ? { ...w, text: t.slice(k + 1) } : args[++i];
        if (c === "e" && v) scripts.push(v);
        if (c === "f") fromFile = true;
        break;
      }
    }
  }
  if (scripts.length === 0 && !fromFile && operands.length) scripts.push(operands.shift() as Word);
  return { scripts, operands, inPlace, fromFile };
}

export interface SedEffects {
  /** Command lines the `e COMMAND` command and the s///e flag run (the replacement, for s///e). */
  exec: string[];
  /** `e` without a command: runs the pattern space, not known until run time. */
  execUnknown: boolean;
  /** Files the `w`/`W` commands and the s///w flag write. */
  writes: string[];
  /** Files the `r`/`R` commands read. */
  reads: string[];
}

/** Walk a sed script's commands, finding what runs, is written and is read. */
export function sedScript(text: string): SedEffects {
  const out: SedEffects = { exec: [], execUnknown: false, writes: [], reads: [] };
  const n = text.length;
  let i = 0;
  const at = (k: number) => text[k] ?? "";
  const line = (): string => {
    let j = text.indexOf("\n", i);
    if (j < 0) j = n;
    const r = text.slice(i, j);
    i = j;
    return r.trim();
  };
  const until = (d: string): string => {
    let r = "";
    while (i < n && at(i) !== d) {
      if (at(i) === "\\" && i + 1 < n) {
        r += at(i) + at(i + 1);
        i += 2;
      } else r += text[i++];
    }
    i++;
    return r;
  };
  const spaces = () => {
    while (i < n && /[ \t]/.test(at(i))) i++;
  };
  const address = (): void => {
    const c = at(i);
    if (c === "/" || c === "\\") {
      const d = c === "\\" ? at(++i) : "/";
      i++;
      until(d);
      while (/[IM]/.test(at(i))) i++;
    } else while (/[\d$~+]/.test(at(i))) i++;
  };
  while (i < n) {
    while (i < n && /[\s;{}]/.test(at(i))) i++;
    if (i >= n) break;
    if (at(i) === "#") {
      line();
      continue;
    }
    address();
    spaces();
    if (at(i) === ",") {
      i++;
      spaces();
      address();
    }
    spaces();
    while (at(i) === "!") {
      i++;
      spaces();
    }
    const cmd = text[i++];
    if (cmd === "s") {
      const d = text[i++] ?? "/";
      until(d);
      const repl = until(d);
      while (i < n && /[gpiImMe0-9w]/.test(at(i))) {
        const f = text[i++];
        if (f === "e") out.exec.push(repl.replace(/\\(.)/gs, "$1"));
        if (f === "w") {
          out.writes.push(line());
          break;
        }
      }
    } else if (cmd === "y") {
      const d = text[i++] ?? "/";
      until(d);
      until(d);
    } else if (cmd === "e") {
      const c = line();
      if (c) out.exec.push(c);
      else out.execUnknown = true;
    } else if (cmd === "w" || cmd === "W") out.writes.push(line());
    else if (cmd === "r" || cmd === "R") out.reads.push(line());
    else if (cmd === "a" || cmd === "i" || cmd === "c") line();
    else if (
      cmd === ":" ||
      cmd === "b" ||
      cmd === "t" ||
      cmd === "T" ||
      cmd === "v" ||
      cmd === "q" ||
      cmd === "Q" ||
      cmd === "l" ||
      cmd === "L"
    ) {
      while (i < n && !/[;\n}]/.test(at(i))) i++;
    }
  }
  return out;
}

function sedTargets(args: readonly Word[]): Target[] {
  const a = sedArgs(args);
  const written = a.scripts.filter((w) => !w.dynamic).flatMap((w) => sedScript(w.text).writes);
  const files = written.filter((f) => f !== "" && !/^\/dev\/std(out|err)$/.test(f)).map((f) => ({ word: lit(f), mode: "write" as Mode }));
  return [...(a.inPlace ? all(a.operands, "write") : []), ...files];
}

function optionValueSpec(opts: string[], fallbackCwd: boolean): Spec {
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
  // Every mode letter counts, wherever it stands (`tar -C / -xf x.tar`), and old-style bundles (`tar xf x.tar`).
  const oldStyle = args[0] !== undefined && /^[a-zA-Z]+$/.test(args[0].text) && /[ctxruA]/.test(args[0].text);
  const mode =
    a.flags
      .filter((f) => !f.startsWith("--"))
      .map((f) => f.slice(1))
      .join("") + (oldStyle ? (args[0]?.text ?? "") : "");
  if (/[xX]/.test(mode) || a.flags.includes("--extract") || a.flags.includes("--get")) {
    const dirs = allValues(args, "C", ["--directory"], "xctvzjJapkmUwWr");
    const dir = dirs[dirs.length - 1] ?? cwd();
    // Operands after the archive are the members extracted: the files written.
    const skip = (oldStyle ? 1 : 0) + (oldStyle && /f/.test(args[0]?.text ?? "") ? 1 : 0);
    const members = a.positional.slice(skip).filter((w) => !w.text.startsWith("-"));
    const under = (m: Word): Word =>
      m.text.startsWith("/") || dir.text === "."
        ? m
        : { ...m, text: `${dir.text.replace(/\/+$/, "")}/${m.text}`, dynamic: m.dynamic || dir.dynamic, glob: m.glob || dir.glob };
    return [{ word: dir, mode: "write" }, ...members.map((m) => ({ word: under(m), mode: "write" as Mode }))];
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
    // find evaluates left to right: only a test before the first -delete filters it, and
    // a match-everything test (`-name '*'`, `-regex '.*'`) filters nothing.
    const del = args.findIndex((w) => w.text === "-delete");
    const filtered = args
      .slice(0, del)
      .some(
        (w, k, a) =>
          /^-(i?name|i?path|type|mtime|mmin|atime|amin|ctime|cmin|newer|size|empty|user|group|perm|regex|iregex|wholename|iwholename|links|inum|samefile)$/.test(
            w.text,
          ) && !/^(\*|\.\*|\.?\/?\*\*?)$/.test(a[k + 1]?.text ?? ""),
      );
    const starts = roots.length ? roots : [cwd()];
    if (filtered)
      out.push(...starts.map((r) => ({ word: { ...r, text: `${r.text.replace(/\/+$/, "")}/{}`, glob: true }, mode: "delete" as Mode })));
    else out.push(...all(starts, "tree"));
  }
  return out;
}

const CP_LONGS = [
  "--archive",
  "--attributes-only",
  "--backup",
  "--copy-contents",
  "--dereference",
  "--force",
  "--interactive",
  "--link",
  "--no-clobber",
  "--no-dereference",
  "--preserve",
  "--no-preserve",
  "--parents",
  "--recursive",
  "--reflink",
  "--remove-destination",
  "--sparse",
  "--strip-trailing-slashes",
  "--symbolic-link",
  "--suffix",
  "--target-directory",
  "--no-target-directory",
  "--update",
  "--verbose",
  "--one-file-system",
  "--context",
  "--debug",
  "--keep-directory-symlink",
];
const MV_LONGS = [
  "--backup",
  "--force",
  "--interactive",
  "--no-clobber",
  "--no-copy",
  "--strip-trailing-slashes",
  "--suffix",
  "--target-directory",
  "--no-target-directory",
  "--update",
  "--verbose",
  "--context",
  "--exchange",
  "--debug",
];
const INSTALL_LONGS = [
  "--backup",
  "--compare",
  "--directory",
  "--group",
  "--mode",
  "--owner",
  "--preserve-timestamps",
  "--strip",
  "--strip-program",
  "--suffix",
  "--target-directory",
  "--no-target-directory",
  "--verbose",
  "--preserve-context",
  "--context",
  "--debug",
];
const LN_LONGS = [
  "--backup",
  "--directory",
  "--force",
  "--interactive",
  "--logical",
  "--no-dereference",
  "--physical",
  "--relative",
  "--symbolic",
  "--suffix",
  "--target-directory",
  "--no-target-directory",
  "--verbose",
];

// curl's short options that take a value (`-fsSLo FILE` ends a cluster with one).
const CURL_SHORT_VALUES = "AbcCdDeEFHKmoPQrtTuUwxXyYz";
const CURL_LONG_VALUES = new Set([
  "--output",
  "--dump-header",
  "--cookie-jar",
  "--trace",
  "--trace-ascii",
  "--stderr",
  "--etag-save",
  "--output-dir",
  "--libcurl",
  "--hsts",
  "--alt-svc",
  "--data",
  "--data-binary",
  "--data-raw",
  "--data-ascii",
  "--data-urlencode",
  "--json",
  "--form",
  "--form-string",
  "--upload-file",
  "--header",
  "--request",
  "--user",
  "--user-agent",
  "--referer",
  "--cookie",
  "--config",
  "--max-time",
  "--connect-timeout",
  "--retry",
  "--proxy",
  "--write-out",
  "--range",
  "--cert",
  "--key",
  "--cacert",
  "--capath",
  "--resolve",
  "--connect-to",
  "--interface",
  "--netrc-file",
  "--oauth2-bearer",
  "--url",
  "--variable",
]);
// Options naming a file curl writes (headers, cookies, traces, caches).
const CURL_WRITES = new Set([
  "-o",
  "--output",
  "-D",
  "--dump-header",
  "-c",
  "--cookie-jar",
  "--trace",
  "--trace-ascii",
  "--stderr",
  "--etag-save",
  "--libcurl",
  "--hsts",
  "--alt-svc",
]);

/** curl's options and operands, short clusters split (`-fsSLo F` → -f -s -S -L -o F). */
export function curlOptions(args: readonly Word[]): { opts: [string, Word | null][]; operands: Word[] } {
  const opts: [string, Word | null][] = [];
  const operands: Word[] = [];
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as Word;
    const t = w.text;
    if (t === "--") {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (w.dynamic || !t.startsWith("-") || t === "-") {
      operands.push(w);
      continue;
    }
    if (t.startsWith("--")) {
      const eq = t.indexOf("=");
      if (eq > 0) opts.push([t.slice(0, eq), { ...w, text: t.slice(eq + 1) }]);
      else opts.push([t, CURL_LONG_VALUES.has(t) ? (args[++i] ?? null) : null]);
      continue;
    }
    for (let k = 1; k < t.length; k++) {
      const c = t[k] as string;
      if (!CURL_SHORT_VALUES.includes(c)) {
        opts.push([`-${c}`, null]);
        continue;
      }
      opts.push([`-${c}`, t.length > k + 1 ? { ...w, text: t.slice(k + 1) } : (args[++i] ?? null)]);
      break;
    }
  }
  return { opts, operands };
}

function curlTargets(args: readonly Word[]): Target[] {
  const { opts, operands } = curlOptions(args);
  const out: Target[] = [];
  for (const [o, v] of opts) if (CURL_WRITES.has(o) && v && v.text !== "-" && v.text !== "%") out.push({ word: v, mode: "write" });
  if (opts.some(([o]) => o === "-O" || o === "--remote-name" || o === "--remote-name-all" || o === "-J")) {
    const dir = [...opts].reverse().find(([o]) => o === "--output-dir")?.[1] ?? cwd();
    out.push({ word: dir, mode: "write" });
    // -O names the file after the URL's last path segment, inside --output-dir.
    for (const u of operands) {
      const name =
        u.text
          .replace(/[?#].*$/, "")
          .replace(/^[a-z]+:\/\/[^/]*/i, "")
          .split("/")
          .pop() ?? "";
      if (name !== "")
        out.push({ word: { ...u, text: `${dir.text.replace(/\/+$/, "")}/${name}`, dynamic: u.dynamic || dir.dynamic }, mode: "write" });
    }
  }
  return out;
}

const SPECS: Record<string, Spec> = {
  rm: deleter,
  rmdir: deleter,
  unlink: deleter,
  shred: deleter,
  srm: deleter,
  wipe: deleter,
  // touch changes times, never content: nothing it touches is destroyed.
  touch: (a) =>
    all(splitArgs(a, new Set(["-d", "-r", "-t", "--reference", "--date"])).positional, "write").map((t) => ({ ...t, keeps: true })),
  mkdir: (a) => all(splitArgs(a, new Set(["-m", "--mode", "-Z"])).positional, "write"),
  mkfifo: (a) => all(splitArgs(a, new Set(["-m"])).positional, "write"),
  truncate: (a) => all(splitArgs(a, new Set(["-s", "--size", "-r", "--reference"])).positional, "write"),
  tee: (a) => all(splitArgs(a).positional, "write"),
  cp: lastWritten(["-S", "--suffix"], ["-t", "--target-directory"], CP_LONGS),
  install: lastWritten(["-m", "--mode", "-o", "--owner", "-g", "--group", "-S"], ["-t", "--target-directory"], INSTALL_LONGS),
  ln: lastWritten(["-S", "--suffix"], ["-t", "--target-directory"], LN_LONGS),
  rsync: lastWritten(
    ["-e", "--rsh", "--exclude", "--include", "--exclude-from", "--include-from", "--filter", "-f", "--chmod", "--chown"],
    [],
    [],
    true,
  ),
  scp: lastWritten(["-P", "-i", "-o", "-F", "-c", "-l", "-J", "-S"], [], [], true),
  mv: (raw) => {
    const a = expandLong(raw, MV_LONGS);
    const s = splitArgs(a, new Set(["-S", "--suffix", "-t", "--target-directory"]));
    const ts = [...allValues(a, "t", [], "bfinuvTZ"), ...allValues(a, "", ["--target-directory"])];
    const moved = (d: Word) => s.positional.map((src) => into(d, src, false)).filter((t): t is Target => t !== null);
    const keep = (ws: Word[]) => all(ws, "tree").map((t) => ({ ...t, keeps: true }));
    if (ts.length) return [...keep(s.positional), ...ts.flatMap((t) => [{ word: t, mode: "write" as Mode }, ...moved(t)])];
    const dest = s.positional[s.positional.length - 1];
    const sources = s.positional.slice(0, -1);
    const noDir = s.flags.includes("--no-target-directory") || hasShort(s.flags, /T/);
    const inDest = dest && !noDir ? sources.map((src) => into(dest, src, false)).filter((t): t is Target => t !== null) : [];
    return [...keep(sources), ...(dest ? [{ word: dest, mode: "write" as Mode }] : []), ...inDest];
  },
  chmod: permission,
  chown: permission,
  chgrp: permission,
  chattr: permission,
  setfacl: permission,
  sed: sedTargets,
  gsed: sedTargets,
  perl: inPlace,
  dd,
  sort: optionValueSpec(["-o", "--output"], false),
  // Read tools with an option that writes a file: blkid's cache, lshw's dump.
  blkid: optionValueSpec(["-c"], false),
  lshw: optionValueSpec(["-dump"], false),
  uniq: (a) => all(splitArgs(a, new Set(["-f", "-s", "-w"])).positional.slice(1, 2), "write"),
  tar,
  unzip: optionValueSpec(["-d"], true),
  gzip: compressor,
  gunzip: compressor,
  bzip2: compressor,
  bunzip2: compressor,
  xz: compressor,
  unxz: compressor,
  zstd: compressor,
  unzstd: compressor,
  curl: curlTargets,
  wget: (a) => {
    const s = splitArgs(
      a,
      new Set(["-O", "--output-document", "-P", "--directory-prefix", "-o", "-a", "-U", "--header", "-t", "-T", "-e"]),
    );
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
    const out = optionValueSpec(["--output", "--output-directory", "-o"], false)(args);
    if (out.length) return out;
    return optionValueSpec(["-C", "--git-dir", "--work-tree"], true)(args).map((t) => ({ ...t, implicit: true }));
  },
  xxd: (a) => all(splitArgs(a, new Set(["-c", "-g", "-l", "-s", "-o", "-n"])).positional.slice(1, 2), "write"),
  iconv: optionValueSpec(["-o", "--output"], false),
  // openssl's subcommands (rand, req, genpkey, x509, enc …) write -out.
  openssl: optionValueSpec(["-out", "-keyout"], false),
  // split writes PREFIXaa, PREFIXab … next to the prefix (the operand after the input).
  split: (a) =>
    all(splitArgs(a, new Set(["-b", "-l", "-n", "-C", "-a", "--additional-suffix", "--filter", "-t"])).positional.slice(1, 2), "write"),
  sdiff: optionValueSpec(["-o", "--output"], false),
  // journalctl's maintenance options delete or rotate the journal.
  journalctl: (a) =>
    a.some((w) => /^--(vacuum-(size|time|files)|rotate|flush|relinquish-var|setup-keys)\b/.test(w.text))
      ? [{ word: { text: "/var/log/journal", dynamic: false, glob: false, confusable: false }, mode: "delete" }]
      : [],
  make: optionValueSpec(["-C", "--directory", "-f", "--file"], true),
  npm: optionValueSpec(["--prefix", "-C"], true),
  patch: optionValueSpec(["-d", "--directory", "-o", "--output"], true),
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

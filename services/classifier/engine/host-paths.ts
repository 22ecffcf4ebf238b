// What a path operand names on this host, read at classification time: the
// real path behind symlinks (`link/etc/shadow` when link → /), and every
// entry a glob matches now (`/var/lib/agent-sudo/key?/*.k?y`). Nothing is
// cached: a link made by the previous command is seen by the next. A path
// the classifier cannot read is "unknown", never "harmless": callers keep
// their judgement of the text as written and add what is found here.
import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readlinkSync, readSync } from "node:fs";
import type { BigIntStats } from "node:fs";
import { posix } from "node:path";
import picomatch from "picomatch";

/** At most this many names are read from one directory, and at most this many matches kept. */
const MAX_ENTRIES = 4096;
const MAX_MATCHES = 256;
/** Glob segments deeper than this are not expanded (unknown). */
const MAX_GLOB_SEGMENTS = 8;

/** At most this many bytes of a sourced script are read; a larger one is "cannot be known". */
const MAX_SCRIPT = 64 * 1024;

/** The text of a regular file of at most 64 KiB (following links, as `source` does), or null. */
export function readScript(path: string): string | null {
  const known = scripts.get(path);
  if (known !== undefined) return known;
  const text = readSmall(path);
  scripts.set(path, text);
  return text;
}

function readSmall(path: string): string | null {
  if (realPath(path) === null) return null;
  let fd: number | null = null;
  try {
    fd = openSync(path, "r");
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > MAX_SCRIPT) return null;
    const buf = Buffer.alloc(st.size);
    const n = readSync(fd, buf, 0, st.size, 0);
    const text = buf.subarray(0, n).toString("utf8");
    return text.includes("\0") ? null : text;
  } catch {
    return null;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

const PUBLIC_PEM = /^(?:TRUSTED )?(?:CERTIFICATE|X509 CRL|CERTIFICATE REQUEST|NEW CERTIFICATE REQUEST)$/;

/** PEM text holding only certificates, CRLs or requests — public material, no key (at least one block). */
export function publicPem(text: string): boolean {
  const labels = [...text.matchAll(/-----BEGIN ([A-Z0-9 ]+)-----/g)].map((m) => m[1] as string);
  return labels.length > 0 && labels.every((l) => PUBLIC_PEM.test(l));
}

/** A PEM file holding only certificates, CRLs or requests (read here, at most 64 KiB). */
/** A private key in PEM (any algorithm, OpenSSH's too), a PuTTY key, a service-account JSON's key. */
const PRIVATE_KEY = /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----|PuTTY-User-Key-File-\d|"private_key"\s*:\s*"-----BEGIN/;
const HEAD_BYTES = 4096;
/** One buffer for every look (classification is synchronous). */
const head = Buffer.allocUnsafe(HEAD_BYTES);

/**
 * Whether the regular file at `path` holds a private key in its first 4 KB
 * (a key saved under another name: `backup.txt`, `deploy`), "unreadable"
 * when this process may not read it. Looked at once per command.
 */
export function keyInside(path: string): boolean | "unreadable" {
  let found = heads.get(path);
  if (found !== undefined) return found;
  found = false;
  const real = realPath(path);
  const st = real === null ? null : lstat(real);
  if (real !== null && st !== null && st !== "unknown" && st.isFile()) {
    let fd: number | null = null;
    try {
      // A FIFO or device swapped in since the lstat is not waited on (O_NONBLOCK); no link is followed.
      fd = openSync(real, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW | constants.O_NOCTTY);
      const n = readSync(fd, head, 0, HEAD_BYTES, 0);
      found = PRIVATE_KEY.test(head.toString("latin1", 0, n));
    } catch (err) {
      found = (err as NodeJS.ErrnoException).code === "EACCES" ? "unreadable" : false;
    } finally {
      if (fd !== null) closeSync(fd);
    }
  }
  heads.set(path, found);
  return found;
}

export function certificateOnly(path: string): boolean {
  const text = readScript(path);
  return text !== null && publicPem(text);
}

// What was looked up while one command is judged: the same word is judged by
// several analyses and most words share directories. Cleared before each
// command (beginCommand), so a link made by the previous command is seen.
// Lookups never throw: an exception costs more than the system call.
/** null: not there; "unknown": this process may not look (EACCES, a masked directory). */
let stats = new Map<string, BigIntStats | null | "unknown">();
let realPaths = new Map<string, string | null>();
/** Symbolic links' targets (null: could not be read). */
let links = new Map<string, string | null>();
/** Directory listings (null: could not be read), and small files read. */
let listings = new Map<string, Listing | null>();
let scripts = new Map<string, string | null>();
/** Path words' expansions (text and base): hostPaths and the hook's hidden-read check expand the same word. */
let expansions = new Map<string, Expansion | null>();
/** Files' first bytes looked into for a private key (keyInside). */
let heads = new Map<string, boolean | "unreadable">();

/** Other modules' per-command lookups (git repositories, ignore files), forgotten with these. */
const forgetters: Array<() => void> = [];
export function forgetWithCommand(forget: () => void): void {
  forgetters.push(forget);
}

/**
 * Forget what was looked up for the previous command. A map that holds
 * something is replaced, not cleared: these maps live long, and clear() on
 * an old map allocates its new table in the old generation (about a
 * microsecond each, and garbage only a full collection frees).
 */
export function beginCommand(): void {
  if (stats.size !== 0) stats = new Map();
  if (realPaths.size !== 0) realPaths = new Map();
  if (links.size !== 0) links = new Map();
  if (listings.size !== 0) listings = new Map();
  if (scripts.size !== 0) scripts = new Map();
  if (expansions.size !== 0) expansions = new Map();
  if (heads.size !== 0) heads = new Map();
  for (const f of forgetters) f();
}

/**
 * lstat, once per path per command (reversible.ts's git checks share it:
 * bigint, the index's nanosecond times). Never throws.
 */
export function lstat(path: string): BigIntStats | null | "unknown" {
  let st = stats.get(path);
  if (st === undefined) {
    // Below a path this command found missing, or found to be neither a directory nor a link, nothing is there
    // (the system call fails with ENOENT or ENOTDIR, and the ENOTDIR exception costs more than the call).
    if (notADirectory(stats.get(posix.dirname(path)))) st = null;
    else
      try {
        st = lstatSync(path, { throwIfNoEntry: false, bigint: true }) ?? null;
      } catch (err) {
        st = (err as NodeJS.ErrnoException).code === "ENOTDIR" ? null : "unknown";
      }
    if (stats.size > 4096) stats.clear();
    stats.set(path, st);
  }
  return st;
}

/** A looked-up parent under which no path can exist: missing, or there and neither a directory nor a link. */
export function notADirectory(parent: { isDirectory(): boolean; isSymbolicLink(): boolean } | null | "unknown" | undefined): boolean {
  if (parent === undefined || parent === "unknown") return false;
  return parent === null || (!parent.isDirectory() && !parent.isSymbolicLink());
}

/**
 * Whether listing `path` can succeed, by the lstat this command already made
 * (or makes now): false when nothing is there or it is neither a directory
 * nor a link (readdir would fail with ENOENT or ENOTDIR). A link, a
 * directory, or a path this process may not look at: true (try it).
 */
export function mayList(path: string): boolean {
  const st = lstat(path);
  if (st === null) return false;
  return st === "unknown" || st.isDirectory() || st.isSymbolicLink();
}

function readlink(path: string): string | null {
  let target = links.get(path);
  if (target === undefined) {
    try {
      target = readlinkSync(path);
    } catch {
      target = null;
    }
    if (links.size > 1024) links.clear();
    links.set(path, target);
  }
  return target;
}

interface Listing {
  names: string[];
  /** The names that are symbolic links (from the directory's own entry types, no lstat each). */
  links: Set<string>;
}
const EMPTY: Listing = { names: [], links: new Set() };

/**
 * The entries of directory `dir`, once per command: none where nothing is
 * there or it is no directory, null where it cannot be read (anything may be
 * in it). Entry types come with the names (where a file system gives none,
 * node looks each up), so finding the links costs no lstat per name.
 */
function listing(dir: string): Listing | null {
  let found = listings.get(dir);
  if (found === undefined) {
    const st = lstat(dir);
    found = st === null ? EMPTY : null;
    if (st !== null && st !== "unknown") {
      try {
        const entries = readdirSync(dir, { withFileTypes: true });
        found = { names: entries.map((e) => e.name), links: new Set(entries.filter((e) => e.isSymbolicLink()).map((e) => e.name)) };
      } catch (err) {
        found = (err as NodeJS.ErrnoException).code === "ENOTDIR" ? EMPTY : null;
      }
    }
    listings.set(dir, found);
  }
  return found;
}

/** The names in directory `dir` (once per command), or null when it cannot be read. */
export function listDir(dir: string): string[] | null {
  return listing(dir)?.names ?? null;
}

/** A directory holding more links than this is "cannot be listed": judging each would let a command stall the classifier. */
const MAX_LINKS = 64;

/**
 * The symbolic links directly in directory `dir` (absolute paths): where an
 * extraction into `dir` writes through them. null when `dir` cannot be
 * listed or holds more than MAX_LINKS links.
 */
export function linksIn(dir: string): string[] | null {
  // A directory not there yet (`unzip -d new x.zip` makes it) has no links in it.
  const found = listing(dir);
  if (found === null || found.links.size > MAX_LINKS) return null;
  return [...found.links].map((name) => `${dir === "/" ? "" : dir}/${name}`);
}

/** Whether this command's listing of the parent already shows `path` to be a symbolic link (no lstat needed). */
function listedLink(path: string): boolean {
  const cut = path.lastIndexOf("/");
  const found = listings.get(cut === 0 ? "/" : path.slice(0, cut));
  return found != null && found.links.has(path.slice(cut + 1));
}

/**
 * The real path of an absolute path that exists, or null (missing,
 * unreadable, a loop). `..` is taken physically, after the links before it,
 * as the kernel takes it: `link/../x` with link → /usr/lib is /usr/x.
 */
export function realPath(path: string, partial = false): string | null {
  const key = partial ? `\0${path}` : path;
  const known = realPaths.get(key);
  if (known !== undefined) return known;
  let parts = path.split("/").filter((x) => x !== "" && x !== ".");
  let out = "";
  let hops = 0;
  let real: string | null = null;
  for (let i = 0; ; i++) {
    if (i >= parts.length) {
      real = out || "/";
      break;
    }
    const part = parts[i] as string;
    if (part === "..") {
      out = posix.dirname(out || "/") === "/" ? "" : posix.dirname(out);
      continue;
    }
    const next = `${out}/${part}`;
    // /proc/self is the process that looks: here the classifier, not the command judged. Its fd, cwd and exe
    // links lead to the classifier's own files, so a path through it (or /dev/fd, /dev/stdin) is kept by name.
    if (out === "/proc" && (part === "self" || part === "thread-self")) {
      // …except its root, which is the command's "/" as much as the classifier's: resolving goes on from there
      // (`/proc/self/root/WS/r/etc` with r -> / is /etc).
      if (parts[i + 1] === "root") {
        out = "";
        i++;
        continue;
      }
      real = posix.normalize(`${next}/${parts.slice(i + 1).join("/")}`);
      break;
    }
    if (!listedLink(next)) {
      const st = lstat(next);
      // partial: the first missing component and what follows it, where the kernel would create or look for them.
      if (st === null && partial) {
        real = posix.normalize(`${out}/${parts.slice(i).join("/")}`);
        break;
      }
      if (st === null || st === "unknown") break;
      if (!st.isSymbolicLink()) {
        out = next;
        continue;
      }
    }
    const target = readlink(next);
    if (target === null) break;
    if (++hops > 40) break;
    const rest = parts.slice(i + 1);
    parts = [...(target.startsWith("/") ? target : `${out}/${target}`).split("/").filter((x) => x !== "" && x !== "."), ...rest];
    out = "";
    i = -1;
  }
  if (realPaths.size > 1024) realPaths.clear();
  realPaths.set(key, real);
  return real;
}

/** What a verdict that fails closed where the classifier cannot look tells the operator to do (the README's ACL advice). */
export const LET_IT_LOOK = "let the classifier's user read the workspace (README)";

/**
 * Whether the classifier is kept from seeing where `path` leads: a directory
 * on the way (or on the way of a link it passes) that it may not look into —
 * its lstat fails but with ENOENT or ENOTDIR (a 0700 home, `~/.ssh` behind a
 * workspace link, an over-mounted /home) — or a link it cannot read. What is
 * there, a key behind a link, cannot be seen.
 */
export function hiddenFromView(path: string): boolean {
  let parts = path.split("/").filter((x) => x !== "" && x !== ".");
  let out = "";
  let hops = 0;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] as string;
    if (part === "..") {
      out = posix.dirname(out || "/") === "/" ? "" : posix.dirname(out);
      continue;
    }
    const next = `${out}/${part}`;
    const st = lstat(next);
    if (st === "unknown") return true;
    if (st === null) return false;
    if (st.isSymbolicLink()) {
      const target = readlink(next);
      if (target === null) return true;
      if (++hops > 40) return false;
      const rest = parts.slice(i + 1);
      parts = [...(target.startsWith("/") ? target : `${out}/${target}`).split("/").filter((x) => x !== "" && x !== "."), ...rest];
      out = "";
      i = -1;
      continue;
    }
    if (!st.isDirectory()) return false;
    out = next;
  }
  return false;
}

/**
 * Where a path that does not resolve leads through the links it does pass
 * (`nd/x` with nd → /etc/missing is /etc/missing/x): the place a write there
 * would go once the missing part exists, or null when no link is on the way.
 */
export function danglingPath(path: string): string | null {
  const far = realPath(path, true);
  return far === null || far === posix.normalize(path) ? null : far;
}

/**
 * The real path of what `path` names without following its last component
 * (rm, mv, unlink act on a link itself): realpath(dirname) + basename.
 */
export function realParent(path: string): string | null {
  if (path === "/") return "/";
  if (/(^|\/)\.\.?\/*$/.test(path)) return realPath(path);
  const dir = realPath(posix.dirname(path));
  return dir === null ? null : posix.join(dir, posix.basename(path));
}

const GLOB_CHAR = /[*?[]|[@!+*?]\(/;

const matchers = new Map<string, (name: string) => boolean>();

/** A compiled glob segment (a pure function of its text: kept across commands). */
function matcher(segment: string): (name: string) => boolean {
  let m = matchers.get(segment);
  if (m === undefined) {
    // bash: `*` and `?` never match a leading dot unless the pattern has one.
    m = picomatch(segment, { dot: segment.startsWith("."), bash: true, nonegate: true });
    if (matchers.size > 1024) matchers.clear();
    matchers.set(segment, m);
  }
  return m;
}

export interface Expansion {
  /** Absolute paths the glob matches now (at most MAX_MATCHES). */
  matches: string[];
  /** True when some directory on the way could not be read, or limits were hit: more may match. */
  partial: boolean;
}

/**
 * Expand an absolute glob pattern against this host, segment by segment.
 * Brace alternatives are expanded first. Returns null when the pattern is
 * not something this expander handles (the caller keeps its own judgement).
 */
export function expandGlob(pattern: string): Expansion | null {
  if (!pattern.startsWith("/")) return null;
  const alternatives = picomatch.scan(pattern).isGlob ? braces(pattern) : [pattern];
  if (alternatives === null) return null;
  const out: Expansion = { matches: [], partial: false };
  for (const alt of alternatives) {
    const segments = alt.split("/").filter(Boolean);
    if (segments.filter((s) => GLOB_CHAR.test(s)).length > MAX_GLOB_SEGMENTS) return null;
    walk("/", segments, out);
    if (out.matches.length >= MAX_MATCHES) {
      out.partial = true;
      break;
    }
  }
  out.matches = [...new Set(out.matches)];
  return out;
}

function walk(dir: string, segments: string[], out: Expansion): void {
  if (out.matches.length >= MAX_MATCHES) {
    out.partial = true;
    return;
  }
  const [head, ...rest] = segments;
  if (head === undefined) {
    out.matches.push(dir);
    return;
  }
  if (!GLOB_CHAR.test(head)) {
    const next = posix.join(dir, head.replace(/\\(.)/g, "$1"));
    if (rest.length === 0) {
      const there = exists(next);
      if (there === "unknown") out.partial = true;
      else if (there) out.matches.push(next);
      return;
    }
    walk(next, rest, out);
    return;
  }
  // A directory that does not exist matches nothing; one that cannot be read may match anything.
  let names = listing(dir)?.names ?? null;
  if (names === null) {
    out.partial = true;
    return;
  }
  if (names.length > MAX_ENTRIES) {
    out.partial = true;
    names = names.slice(0, MAX_ENTRIES);
  }
  const match = matcher(head);
  for (const name of names) if (match(name)) walk(posix.join(dir, name), rest, out);
}

function exists(path: string): boolean | "unknown" {
  const st = lstat(path);
  return st === "unknown" ? "unknown" : st !== null;
}

/**
 * The absolute paths a path word names here: each brace alternative, each
 * glob's current matches (relative words against `base`). `partial` when a
 * directory could not be read or there is no base for a relative word.
 */
export function expandWordPaths(text: string, base: string): Expansion | null {
  const key = `${base}\0${text}`;
  let made = expansions.get(key);
  if (made === undefined) {
    made = expandWord(text, base);
    expansions.set(key, made);
  }
  return made;
}

function expandWord(text: string, base: string): Expansion | null {
  const alternatives = braces(text);
  if (alternatives === null) return null;
  const out: Expansion = { matches: [], partial: false };
  for (const alt of alternatives) {
    if (!alt.startsWith("/") && !base) {
      out.partial = true;
      continue;
    }
    const abs = alt.startsWith("/") ? alt : posix.join(base, alt);
    if (!/[*?[]/.test(alt)) {
      out.matches.push(posix.normalize(abs));
      continue;
    }
    const e = expandGlob(abs);
    if (e === null) {
      out.partial = true;
      continue;
    }
    out.partial ||= e.partial;
    out.matches.push(...e.matches);
    if (out.matches.length >= MAX_MATCHES) {
      out.partial = true;
      break;
    }
  }
  return out;
}

/**
 * The words bash makes of `w` here: brace alternatives, then each glob's
 * matches relative to `cwd` (a glob matching nothing stays as written).
 * Null when that cannot be known (no cwd, an unreadable directory).
 */
export function wordExpansions(text: string, cwd: string): readonly string[] | null {
  const alternatives = braces(text);
  if (alternatives === null) return null;
  const out: string[] = [];
  for (const alt of alternatives) {
    if (!/[*?[]/.test(alt)) {
      out.push(alt);
      continue;
    }
    if (!alt.startsWith("/") && !cwd) return null;
    const abs = alt.startsWith("/") ? alt : posix.join(cwd, alt);
    const e = expandGlob(abs);
    if (e === null || e.partial) return null;
    if (e.matches.length === 0) out.push(alt);
    for (const m of e.matches) out.push(alt.startsWith("/") ? m : posix.relative(cwd, m));
  }
  return out;
}

/** `a{b,c}d` → [abd, acd] (nested braces, at most 64 results); null when there are more. */
function braces(text: string): string[] | null {
  const open = text.indexOf("{");
  if (open < 0) return [text];
  let depth = 0;
  let close = -1;
  const cuts: number[] = [];
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === "\\") {
      i++;
      continue;
    }
    if (c === "{") depth++;
    else if (c === "}" && --depth === 0) {
      close = i;
      break;
    } else if (c === "," && depth === 1) cuts.push(i);
  }
  if (close < 0 || cuts.length === 0) return [text];
  const parts: string[] = [];
  let from = open + 1;
  for (const cut of [...cuts, close]) {
    parts.push(text.slice(from, cut));
    from = cut + 1;
  }
  const out: string[] = [];
  for (const p of parts) {
    const rest = braces(text.slice(0, open) + p + text.slice(close + 1));
    if (rest === null) return null;
    out.push(...rest);
    if (out.length > 64) return null;
  }
  return out;
}

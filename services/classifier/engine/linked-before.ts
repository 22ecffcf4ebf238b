// Links an earlier command of the same line makes or carries: a later write
// through the link's name lands where it leads, but is judged against the
// disk as it is now, where nothing is at that name yet (stop 48's open item:
// `ln scripts/fmt.sh x && echo id > x` rewrote a hook's script at tier 1;
// verified, `ln .git/config c && … >> c` planted core.fsmonitor). A link
// copied or moved (`cp -P`, `cp -a`, `cp -r` of a tree holding one, `mv`) is
// carried with its text, which then leads wherever it leads from its new
// place; an extraction may make links anywhere under where it lands. For
// each command, the names earlier commands made and where each leads ("" for
// not known: under an extraction, a tree too large to look through).
import { readlinkSync } from "node:fs";
import { posix } from "node:path";
import { delegate } from "./delegates.js";
import { repoOf } from "./git-index.js";
import { pastWrappers } from "./line-walk.js";
import { gitWritesTree, TOP } from "./git-tree-writes.js";
import { listDir, lstat, realPath } from "./host-paths.js";
import { interpreter } from "./interpreters.js";
import { resolvePlace } from "./paths.js";
import { diffReadOnly } from "./tools/outputs.js";
import type { Context, SimpleCommand, Word } from "./types.js";
import { prefixWrapper } from "./wrappers.js";
import { targetsOf } from "./writers.js";

/** The name standing for "a link somewhere not known here" (`ln -s T "$(…)"`): every later write may go through it. */
export const ANYWHERE = "*";

/** ln's and cp's options that take a value: `-t DIR`, `-S SUFFIX`. */
const VALUED = /^(?:-[a-zA-Z]*[tS]|--target-directory|--suffix)$/;

/** rsync's options whose value is the next word (not a source). */
const RSYNC_VALUED = new Set([
  "-e",
  "--rsh",
  "-f",
  "--filter",
  "--exclude",
  "--include",
  "--exclude-from",
  "--include-from",
  "--files-from",
  "-T",
  "--temp-dir",
  "--partial-dir",
  "--backup-dir",
  "--suffix",
  "-B",
  "--block-size",
  "--chmod",
  "--chown",
  "--log-file",
  "--password-file",
  "-M",
  "--remote-option",
  "--compare-dest",
  "--copy-dest",
  "--link-dest",
]);

interface LinkCall {
  args: Word[];
  /** "carry": a copy or move that keeps links as links (the sources' links, not the sources, are what counts). */
  kind: "hard" | "symbolic" | "carry";
  /** `ln -r`: a symbolic target is named from the cwd, not from the link's directory. */
  relative: boolean;
}

/** The link-making calls of a command: `ln …` and `cp -l`/`-s` (behind wrappers), `link A B`. */
function linkCall(all: readonly Word[]): LinkCall | null {
  const words = pastWrappers(all);
  const [prog, ...args] = words;
  const name = prog && !prog.dynamic ? posix.basename(prog.text) : "";
  const flags = args
    .filter((w) => /^-[a-zA-Z]+$/.test(w.text))
    .map((w) => w.text.slice(1))
    .join("");
  const long = (o: string) => args.some((w) => w.text === o);
  const symbolic = /s/.test(flags) || long("--symbolic") || long("--symbolic-link");
  if (name === "ln") return { args, kind: symbolic ? "symbolic" : "hard", relative: /r/.test(flags) || long("--relative") };
  if (name === "link") return { args, kind: "hard", relative: false };
  if (name === "mv") return { args, kind: "carry", relative: false };
  // `git mv` of a tracked link moves the link (round 31).
  if (name === "git" && args[0]?.text === "mv") return { args: args.slice(1), kind: "carry", relative: false };
  // rsync keeps links as links with -l (or -a); -L/--copy-links copies what they lead to (round 31).
  if (name === "rsync") {
    const keeps = /[al]/.test(flags) || long("--links") || long("--archive");
    const copies = /L/.test(flags) || long("--copy-links");
    const remote = args.some((w) => /^[^/-][^/]*:/.test(w.text));
    return keeps && !copies && !remote
      ? { args: args.filter((_w, i) => !RSYNC_VALUED.has(args[i - 1]?.text ?? "")), kind: "carry", relative: false }
      : null;
  }
  if (name !== "cp") return null;
  if (symbolic) return { args, kind: "symbolic", relative: false };
  if (/l/.test(flags) || long("--link")) return { args, kind: "hard", relative: false };
  // GNU cp follows a link it is given only when it copies one file without -P, -d or -a (or with -L).
  const keeps = /[PdarR]/.test(flags) || args.some((w) => /^--(?:no-dereference|archive|recursive|preserve=.*links)/.test(w.text));
  return keeps && !/[L]/.test(flags) && !long("--dereference") ? { args, kind: "carry", relative: false } : null;
}

/** Where a command writes names not known here (targets that fill a directory), and `git apply`'s and `git am`'s cwd. */
function extractsInto(cmd: SimpleCommand): Word[] {
  const [prog, ...args] = cmd.words;
  if (!prog || prog.dynamic) return [];
  const name = posix.basename(prog.text);
  const worktree = name === "git" ? gitWritesTree(args) : null;
  if (worktree !== null) return [{ ...prog, text: worktree }];
  // `cpio -p DIR` copies the names on its input (links as links) into DIR; `pax -rw … DIR` likewise (round 31).
  if (name === "cpio" && args.some((w) => /^-[a-zA-Z]*p/.test(w.text) || w.text === "--pass-through")) {
    const dirs = args.filter((w, i) => !w.text.startsWith("-") && !/^-[a-zA-Z]*[EFHIMORs]$/.test(args[i - 1]?.text ?? ""));
    return dirs.length > 0 ? dirs.slice(-1) : [{ ...prog, text: "." }];
  }
  if (name === "pax" && args.some((w) => /^-[a-zA-Z]*r/.test(w.text)) && args.some((w) => /^-[a-zA-Z]*w/.test(w.text))) {
    const dirs = args.filter((w) => !w.text.startsWith("-"));
    return dirs.length > 0 ? dirs.slice(-1) : [{ ...prog, text: "." }];
  }
  if (name === "git" && args.some((w) => w.text === "apply" || w.text === "am")) {
    // `git apply --check`/`--stat`: nothing is written.
    const texts = args.map((w) => w.text);
    return diffReadOnly(texts) || texts.some((w) => /^--(?:abort|quit|show-current-patch)/.test(w)) ? [] : [{ ...prog, text: "." }];
  }
  return (targetsOf(name, args) ?? []).filter((t) => t.fills).map((t) => t.word);
}

/** Where an extraction lands: names under it may be links leading anywhere; the directory itself stays what it is. */
const EXTRACTED = "?";

/** At most this many entries of a tree copied or moved are looked through for links. */
const MAX_TREE = 512;

/**
 * The links a tree (or one link) at `from` holds, each as [its path relative to `from` ("" for `from` itself), its
 * text]; null when the tree is too large to look through.
 */
function carriedLinks(from: string): Array<[string, string]> | null {
  const out: Array<[string, string]> = [];
  const stack = [""];
  let seen = 0;
  while (stack.length > 0) {
    const rel = stack.pop() as string;
    const at = rel === "" ? from : `${from}/${rel}`;
    const st = lstat(at);
    if (st === null || st === "unknown") continue;
    if (st.isSymbolicLink()) {
      try {
        out.push([rel, readlinkSync(at, "utf8")]);
      } catch {
        return null;
      }
    } else if (st.isDirectory()) {
      for (const name of listDir(at) ?? []) {
        if (++seen > MAX_TREE) return null;
        stack.push(rel === "" ? name : `${rel}/${name}`);
      }
    }
  }
  return out;
}

/** How a name a call makes may be read: only as given, only as a directory holding the source's name, or both. */
type Reading = "file" | "dir" | "either";

/** The link names a call makes, each with the target it names as written (one per source). */
function made(call: LinkCall): Array<[Word, Word, Reading]> {
  const words: Word[] = [];
  let into: Word | undefined;
  let noDir = false;
  const { args } = call;
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as Word;
    const t = w.text;
    const bundled = /^-[a-zA-Z]*?t(.*)$/s.exec(t);
    if (/^--target-directory=/.test(t)) into = { ...w, text: t.slice("--target-directory=".length) };
    else if (t === "--target-directory") into = args[++i];
    else if (bundled && !t.startsWith("--")) into = bundled[1] ? { ...w, text: bundled[1] } : args[++i];
    else if (VALUED.test(t)) i++;
    else if (t === "--") {
      words.push(...args.slice(i + 1));
      break;
    } else if (/^-[a-zA-Z]*T/.test(t) || t === "--no-target-directory") noDir = true;
    else if (!t.startsWith("-") || t === "-") words.push(w);
  }
  // `ln T` links T into the cwd; `ln T NAME` names it NAME (or NAME/T when NAME is a directory); `ln A B DIR`.
  // With -t DIR the link is DIR/T, never DIR itself (round 31: `ln -st src ../.git/config` was read as src → it too).
  if (into !== undefined) return words.map((s) => [s, into as Word, "dir"]);
  if (words.length === 1) return [[words[0] as Word, { ...(words[0] as Word), text: "." }, "dir"]];
  const dest = words[words.length - 1] as Word;
  return words.slice(0, -1).map((s) => [s, dest, words.length > 2 ? "dir" : noDir ? "file" : "either"]);
}

/** `ln T NAME`'s link: NAME/T when NAME is a directory (or a link to one), NAME when it is anything else; both when it is not there yet. */
function eitherName(at: string, base: string): string[] {
  const st = lstat(at);
  if (st === null || st === "unknown") return [at, posix.join(at, base)];
  const real = realPath(at);
  const dir = real === null ? null : lstat(real);
  return dir !== null && dir !== "unknown" && dir.isDirectory() ? [posix.join(at, base)] : [at];
}

/** The static directory of a glob (`src/*.sh` → `src`): what a copy of its matches may carry is under it. */
function globDir(text: string): string {
  const cut = text.search(/[*?[{]/);
  const head = cut < 0 ? text : text.slice(0, cut);
  return head.includes("/") ? head.slice(0, head.lastIndexOf("/")) || "/" : ".";
}

/**
 * For each command of a line, the places earlier links of the line made
 * (resolved) and where each leads (resolved; a symbolic target from the
 * link's directory). A name that may be a directory gets both readings: the
 * name itself and the name/basename of the target. `step` follows the line's
 * `cd`s as index.ts does. Links made by code the line runs (`bash -c 'ln …'`,
 * `eval`, `find … -exec ln`, `xargs ln`, `busybox ln`) count (round 31), and
 * a link made earlier is carried by a later copy or move like one on disk.
 */
export function linksMadeBefore(
  commands: readonly SimpleCommand[],
  ctx: Context,
  step: (cmd: SimpleCommand, cwds: string[]) => string[],
  parse: (code: string) => readonly SimpleCommand[] = () => [],
): Map<SimpleCommand, ReadonlyMap<string, string>> {
  const out = new Map<SimpleCommand, ReadonlyMap<string, string>>();
  const seen = new Map<string, string>();
  /** A symbolic link's text as the link holds it (it leads elsewhere once copied or moved). */
  const texts = new Map<string, string>();
  const set = (name: string, to: string, text?: string) => {
    seen.set(name, to);
    if (text === undefined) texts.delete(name);
    else texts.set(name, text);
  };

  /** Copies a link (or the links under a tree) from `src` to `n`: those on disk, and those made earlier in the line. */
  const carry = (src: string | null, n: string, tree: boolean) => {
    if (src === null) {
      set(n, "");
      return;
    }
    const links = carriedLinks(src);
    // A tree too large to look through may carry a link anywhere in it.
    if (links === null) set(n, "");
    for (const [rel, text] of links ?? []) {
      const placed = rel === "" ? n : `${n}/${rel}`;
      set(placed, posix.resolve(posix.dirname(placed), text), text);
    }
    for (const [name, to] of [...seen]) {
      if (name === ANYWHERE) continue;
      const rel = name === src ? "" : name.startsWith(`${src}/`) ? name.slice(src.length + 1) : null;
      if (rel === null || (rel !== "" && !tree)) continue;
      const placed = rel === "" ? n : `${n}/${rel}`;
      const text = texts.get(name);
      if (to === EXTRACTED) set(placed, rel === "" ? EXTRACTED : "");
      else if (text === undefined) set(placed, to);
      else set(placed, to === "" ? "" : posix.resolve(posix.dirname(placed), text), text);
    }
  };

  const linkIn = (words: readonly Word[], cwds: readonly string[]) => {
    const call = linkCall(words);
    if (call === null) return false;
    for (const [target, name, reading] of made(call))
      for (const cwd of cwds) {
        const c = { ...ctx, cwd };
        // A name not known here: the link may be anywhere (round 31: `ln -s .git/config "$(echo c)"`).
        const at = name.dynamic ? null : resolvePlace(name, c).path;
        if (at === null) {
          set(ANYWHERE, "");
          continue;
        }
        // A target not known here, linked into a directory: any name there may be the link (`find … -exec ln -t d {} +`).
        if (target.dynamic && reading !== "file") set(at, "");
        const base = posix.basename(target.text.replace(/\/+$/, ""));
        const names = reading === "file" ? [at] : reading === "dir" ? [posix.join(at, base)] : eitherName(at, base);
        // `cp -a src/* g/`: whatever links the glob's directory holds (on disk or made before) land under g.
        if (call.kind === "carry" && target.glob && !target.dynamic) {
          carry(resolvePlace({ ...target, text: globDir(target.text), glob: false }, c).path, at, true);
          continue;
        }
        for (const n of names) {
          if (call.kind === "carry") {
            carry(target.dynamic ? null : resolvePlace(target, c).path, n, true);
            continue;
          }
          // A target not known here leads anywhere.
          if (target.dynamic) {
            set(n, "");
            continue;
          }
          const from = call.kind === "symbolic" && !call.relative && !target.text.startsWith("/") ? posix.dirname(n) : cwd;
          const to = resolvePlace({ ...target, text: posix.resolve(from, target.text) }, c).path;
          if (to === null) set(n, "");
          else if (to !== n)
            set(n, to, call.kind === "symbolic" ? (call.relative ? posix.relative(posix.dirname(n), to) || "." : target.text) : undefined);
        }
      }
    return true;
  };

  /** One command's links, and those of the commands and code it runs (wrappers, find -exec, xargs, sh -c, eval). */
  const visit = (cmd: SimpleCommand, cwds: string[], depth: number) => {
    // An extraction (names only the archive knows: `tar xf a.tar`, `unzip`, `git apply` of a diff, `git checkout`) may
    // make links anywhere under where it lands, replacing files there too.
    for (const dir of extractsInto(cmd))
      for (const cwd of cwds) {
        const top = dir.text.startsWith(TOP);
        const at = resolvePlace(top ? { ...dir, text: dir.text.slice(TOP.length) } : dir, { ...ctx, cwd }).path;
        if (at !== null) set(top ? (repoOf(at)?.worktree ?? at) : at, EXTRACTED);
      }
    if (linkIn(cmd.words, cwds) || depth > 3) return;
    const [prog, ...args] = cmd.words;
    if (prog === undefined || prog.dynamic) return;
    const name = posix.basename(prog.text);
    const u = prefixWrapper(name, args) ?? delegate(name, args, cmd.stdin, cwds[0]) ?? interpreter(name, args, cmd.stdin);
    if (u === null) return;
    for (const inner of u.inner) {
      // find's `{}` is each match: a name not known here.
      const words = name === "find" ? inner.map((w) => (w.text.includes("{}") ? { ...w, dynamic: true } : w)) : inner;
      visit({ ...cmd, words, redirects: [], source: cmd.source }, cwds, depth + 1);
    }
    for (const code of u.code) {
      let inner = [...cwds];
      for (const c of parse(code)) {
        visit(c, inner, depth + 1);
        inner = step(c, inner);
      }
    }
  };

  let cwds = [ctx.cwd];
  for (let i = 0; i < commands.length; i++) {
    const cmd = commands[i] as SimpleCommand;
    // A command's substitutions run before it, and the parser lists them after it (`x=$(ln -s …) cat x`).
    for (let k = i + 1; k < commands.length && cmd.source.includes((commands[k] as SimpleCommand).source || "\u0000"); k++)
      visit(commands[k] as SimpleCommand, cwds, 0);
    out.set(cmd, new Map(seen));
    visit(cmd, cwds, 0);
    cwds = step(cmd, cwds);
  }
  return out;
}

/**
 * Where a path leads through links the line made before (`x` → the target, `h/pre-commit` → target/pre-commit),
 * with each link's name; "" where that is not known (under an extraction, a tree too large to look through, a link
 * whose name or target is computed). Every reading is given: a name that may be a directory is both.
 */
export function throughLinksMade(path: string, links: ReadonlyMap<string, string>): Array<{ name: string; to: string }> {
  const out: Array<{ name: string; to: string }> = [];
  for (const [name, to] of links) {
    if (name === ANYWHERE) out.push({ name, to: "" });
    // A runner's writes "in the directory" (`git pull && make` writes the work tree) are not through a link there.
    else if (to === EXTRACTED) {
      if (path.startsWith(`${name}/`) || (name === "/" && path !== "/")) out.push({ name, to: "" });
    } else if (path === name) out.push({ name, to });
    else if (path.startsWith(`${name}/`) || name === "/") out.push({ name, to: to === "" ? "" : `${to}${path.slice(name.length)}` });
  }
  return out;
}

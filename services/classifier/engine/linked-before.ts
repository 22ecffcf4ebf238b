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
import { listDir, lstat, realPath } from "./host-paths.js";
import { resolvePlace } from "./paths.js";
import { type Nested, walkLine } from "./line-walk.js";
import type { Context, SimpleCommand, Word } from "./types.js";
import { targetsOf } from "./writers.js";

/** Wrappers that run the command after them (as moved-before.ts's). */
const WRAPPERS = /^(env|command|builtin|nice|nohup|timeout|stdbuf|ionice|chrt|taskset|setsid|time|sudo|doas)$/;

/** ln's and cp's options that take a value: `-t DIR`, `-S SUFFIX`. */
const VALUED = /^(?:-[a-zA-Z]*[tS]|--target-directory|--suffix)$/;

interface LinkCall {
  args: Word[];
  /** "carry": a copy or move that keeps links as links (the sources' links, not the sources, are what counts). */
  kind: "hard" | "symbolic" | "carry";
  /** `ln -r`: a symbolic target is named from the cwd, not from the link's directory. */
  relative: boolean;
}

/** The link-making calls of a command: `ln …` and `cp -l`/`-s` (behind wrappers), `link A B`. */
function linkCall(all: readonly Word[]): LinkCall | null {
  let words = all;
  while (words[0] && !words[0].dynamic && WRAPPERS.test(posix.basename(words[0].text))) {
    let i = 1;
    while (words[i] && (/^-/.test(words[i]!.text) || /^\d+(\.\d+)?[smhd]?$/.test(words[i]!.text) || /^\w+=/.test(words[i]!.text))) i++;
    words = words.slice(i);
  }
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
  if (name === "git" && args.some((w) => w.text === "apply" || w.text === "am")) {
    // `git apply --check`/`--stat`: nothing is written.
    const texts = args.map((w) => w.text);
    const reads = texts.some((w) => /^--(?:check|stat|numstat|summary)$/.test(w)) && !texts.includes("--apply");
    return reads || texts.some((w) => /^--(?:abort|quit|show-current-patch)/.test(w)) ? [] : [{ ...prog, text: "." }];
  }
  return (targetsOf(name, args) ?? []).filter((t) => t.fills).map((t) => t.word);
}

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

/** How a call names its link: exactly, inside a directory (`-t DIR`, `ln A B DIR`), or either, as the disk decides. */
type Naming = "exact" | "into" | "either";

/** The link names a call makes, each with the target it names as written (one per source). */
function made(call: LinkCall): Array<[Word, Word, Naming]> {
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
  if (into !== undefined) return words.map((s) => [s, into as Word, "into"]);
  if (words.length === 1) return [[words[0] as Word, { ...(words[0] as Word), text: "." }, "into"]];
  const dest = words[words.length - 1] as Word;
  return words.slice(0, -1).map((s) => [s, dest, words.length > 2 ? "into" : noDir ? "exact" : "either"]);
}

/** The names a link named `at` gets: inside it when it is a directory (or a link to one); both when it is not there yet. */
function namesFor(at: string, target: Word, naming: Naming): string[] {
  const inside = posix.join(at, posix.basename(target.text));
  if (naming !== "either") return naming === "exact" ? [at] : [inside];
  const st = lstat(at);
  if (st === null || st === "unknown") return [at, inside];
  const real = realPath(at);
  const dir = real === null ? null : lstat(real);
  return dir !== null && dir !== "unknown" && dir.isDirectory() ? [inside] : [at];
}

/**
 * For each command of a line, the places earlier links of the line made
 * (resolved) and where each leads (resolved; a symbolic target from the
 * link's directory). A name that may be a directory gets both readings: the
 * name itself and the name/basename of the target. `step` follows the line's
 * `cd`s as index.ts does.
 */
export function linksMadeBefore(
  commands: readonly SimpleCommand[],
  ctx: Context,
  step: (cmd: SimpleCommand, cwds: string[]) => string[],
  nested: Nested = () => null,
): Map<SimpleCommand, ReadonlyMap<string, string>> {
  const out = new Map<SimpleCommand, ReadonlyMap<string, string>>();
  const seen = new Map<string, string>();
  // `bash -c 'ln -s .git/config z'; echo … >> z`: the code a shell, eval, wrapper or delegate runs counts too.
  walkLine(commands, ctx.cwd, {
    step,
    nested,
    word: LINK_WORD,
    opaque: () => seen.set(ANYWHERE, ""),
    before: (cmd) => out.set(cmd, new Map(seen)),
    visit: (cmd, cwds) => {
      // An extraction (names only the archive knows: `tar xf a.tar`, `unzip`, `git apply` of a diff) may make links
      // anywhere under where it lands, replacing files there too.
      for (const dir of extractsInto(cmd))
        for (const cwd of cwds) {
          const at = resolvePlace(dir, { ...ctx, cwd }).path;
          if (at !== null) seen.set(at, "");
        }
      const call = linkCall(cmd.words);
      if (call !== null)
        for (const [target, name, naming] of made(call))
          for (const cwd of cwds) {
            const c = { ...ctx, cwd };
            if (target.dynamic || name.dynamic) continue;
            const at = resolvePlace(name, c).path;
            if (at === null) continue;
            const names = namesFor(at, target, naming);
            for (const n of names) {
              if (call.kind === "carry") {
                const src = target.glob ? null : resolvePlace(target, c).path;
                const links = src === null ? [] : carriedLinks(src);
                // A tree too large to look through may carry a link anywhere in it.
                if (links === null) seen.set(n, "");
                for (const [rel, text] of links ?? []) {
                  const placed = rel === "" ? n : `${n}/${rel}`;
                  seen.set(placed, posix.resolve(posix.dirname(placed), text));
                }
                continue;
              }
              const from = call.kind === "symbolic" && !call.relative && !target.text.startsWith("/") ? posix.dirname(n) : cwd;
              const to = resolvePlace({ ...target, text: posix.resolve(from, target.text) }, c).path;
              if (to !== null && to !== n) seen.set(n, to);
            }
          }
    },
  });
  return out;
}

/** A link made in code not read here (a computed `bash -c`): it may be anywhere (throughLinkMade takes it for any path). */
const ANYWHERE = "*";
/** The words of the commands that make or carry links (index.ts runs this pass only on a line holding one). */
export const LINK_WORD = /\b(?:ln|link|cp|mv|tar|bsdtar|unzip|7za?|7zz|unrar|cpio|ar|jar|apply|am)\b/;

/**
 * Where a path leads through a link the line made before (`x` → the target, `h/pre-commit` → target/pre-commit),
 * with the link's name; "" where that is not known (under an extraction, or a tree too large to look through).
 */
export function throughLinkMade(path: string, links: ReadonlyMap<string, string>): { name: string; to: string } | null {
  if (links.has(ANYWHERE)) return { name: ANYWHERE, to: "" };
  for (const [name, to] of links) {
    if (path === name) return { name, to };
    if (path.startsWith(`${name}/`)) return { name, to: to === "" ? "" : `${to}${path.slice(name.length)}` };
  }
  return null;
}

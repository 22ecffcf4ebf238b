// Programs whose effect is on files: which paths each writes or destroys,
// and whether whole trees go. The paths are judged in paths.ts.
import { type Args, type Handler, parseArgs } from "./args.js";
import { literalWord, type Word } from "./lex.js";
import { judgeDestroy, judgeWrite, resolvePath } from "./paths.js";
import { type Finding, type JudgeContext, finding, worst } from "./types.js";

function destroyAll(words: Word[], recursive: boolean, ctx: JudgeContext): Finding {
  if (words.length === 0) return finding(1, "destroys nothing named");
  return words.map((w) => judgeDestroy(resolvePath(w, ctx), recursive, ctx)).reduce(worst);
}

function writeAll(words: Word[], ctx: JudgeContext): Finding {
  if (words.length === 0) return finding(1, "writes nothing named");
  return words.map((w) => judgeWrite(resolvePath(w, ctx), ctx)).reduce(worst);
}

const recursiveFlags = (a: Args) => a.has("-r", "-R", "--recursive");

/** Mode changes that grant set-uid/set-gid or open a file to everyone's writes. */
function dangerousMode(mode: string): boolean {
  return (
    /(^|,)[ugoa]*[+=][rwxXt]*s/.test(mode) ||
    /^[0-7]?[2-7][0-7]{3}$/.test(mode) ||
    /^0?[0-7]{2}[2367]$/.test(mode) ||
    /(^|,)[oa]*\+[rx]*w/.test(mode)
  );
}

export const FILE_PROGRAMS: Record<string, Handler> = {
  rm: (a, ctx) => destroyAll(a.operands, recursiveFlags(a), ctx),
  rmdir: (a, ctx) => destroyAll(a.operands, false, ctx),
  unlink: (a, ctx) => destroyAll(a.operands, false, ctx),
  shred: (a, ctx) => destroyAll(a.operands, false, ctx),
  truncate: (words, ctx) => {
    const a = parseArgs(words.words, ["-s", "--size", "-r", "--reference"]);
    return destroyAll(a.operands, false, ctx);
  },
  mv: (a, ctx) => {
    const target = a.values.get("-t")?.[0] ?? a.values.get("--target-directory")?.[0];
    const ops = a.operands;
    const sources = target === undefined ? ops.slice(0, -1) : ops;
    const dest = target === undefined ? ops.slice(-1) : [literalWord(target)];
    return worst(destroyAll(sources, true, ctx), writeAll(dest, ctx));
  },
  cp: (a, ctx) => writeAll(a.operands.slice(-1), ctx),
  install: (a, ctx) => writeAll(a.operands.slice(-1), ctx),
  ln: (a, ctx) => writeAll(a.operands.slice(-1), ctx),
  touch: (a, ctx) => writeAll(a.operands, ctx),
  mkdir: (a, ctx) => writeAll(a.operands, ctx),
  tee: (a, ctx) => writeAll(a.operands, ctx),
  chmod: (a, ctx) => {
    const [mode, ...paths] = a.operands;
    const f = worst(writeAll(paths, ctx), recursiveFlags(a) ? broadTree(paths, "changes permissions of", ctx) : finding(0, ""));
    if (mode && dangerousMode(mode.text)) return worst(f, finding(4, `grants set-id or world-write (${mode.text})`));
    return f;
  },
  chown: (a, ctx) => ownership(a, ctx),
  chgrp: (a, ctx) => ownership(a, ctx),
  chattr: (a, ctx) => writeAll(a.operands.slice(1), ctx),
  sed: (a, ctx) => {
    const parsed = parseArgs(a.words, ["-e", "--expression", "-f", "--file"]);
    if (!parsed.has("-i", "--in-place") && ![...parsed.flags].some((f) => f.startsWith("-i"))) return finding(0, "reads");
    const files = parsed.values.has("-e") || parsed.values.has("--expression") ? parsed.operands : parsed.operands.slice(1);
    return writeAll(files, ctx);
  },
  dd: (a, ctx) => {
    const of = a.words.find((w) => w.text.startsWith("of="));
    if (!of) return finding(0, "dd to stdout");
    return writeAll([{ ...of, text: of.text.slice(3) }], ctx);
  },
  rsync: (a, ctx) => {
    const dest = a.operands.slice(-1).filter((w) => !/^[^/]*:/.test(w.text));
    const deleting = [...a.flags].some((f) => f.startsWith("--delete") || f === "--remove-source-files");
    return deleting ? destroyAll(dest, true, ctx) : writeAll(dest, ctx);
  },
  tar: (a, ctx) => {
    const dir = a.values.get("-C")?.[0] ?? a.values.get("--directory")?.[0];
    const extracting = a.has("-x", "--extract", "--get") || /^[a-z]*x/.test(a.sub);
    if (!extracting) return finding(1, "archives");
    const into = [literalWord(dir ?? ".")];
    return worst(writeAll(into, ctx), broadTree(into, "extracts an archive over", ctx));
  },
  find: (a, ctx) => {
    const roots = a.words
      .slice(
        0,
        Math.max(
          0,
          a.words.findIndex((w) => /^[-!(]/.test(w.text)),
        ),
      )
      .filter((w) => !w.text.startsWith("-"));
    const from = roots.length > 0 ? roots : [literalWord(".")];
    if (a.words.some((w) => w.text === "-delete")) return destroyAll(from, true, ctx);
    if (a.words.some((w) => /^-f(print|ls|printf)/.test(w.text))) return finding(1, "find writes a file");
    return finding(0, "searches");
  },
};

function ownership(a: Args, ctx: JudgeContext): Finding {
  const paths = a.operands.slice(1);
  const f = writeAll(paths, ctx);
  return recursiveFlags(a) ? worst(f, broadTree(paths, "changes ownership of", ctx)) : f;
}

/** A whole-tree change at the root or a top-level directory (or one only known at run time). */
function broadTree(words: Word[], what: string, ctx: JudgeContext): Finding {
  for (const w of words) {
    const rp = resolvePath(w, ctx);
    const d = Math.min(rp.path.split("/").filter(Boolean).length, rp.openDepth);
    if (d <= 1 || rp.dynamic) return finding(4, `${what} the whole tree ${rp.path}${rp.openDepth === Infinity ? "" : "…"}`);
  }
  return finding(0, "");
}

/** Options that take a value, for the programs above whose parse needs them. */
export const FILE_VALUED: Record<string, string[]> = {
  mv: ["-t", "--target-directory", "-S", "--suffix"],
  cp: ["-t", "--target-directory", "-S", "--suffix"],
  install: ["-m", "--mode", "-o", "--owner", "-g", "--group", "-t", "--target-directory"],
  tar: ["-C", "--directory", "-f", "--file"],
  chmod: ["--reference"],
  chown: ["--reference", "--from"],
  touch: ["-d", "--date", "-r", "--reference", "-t"],
};

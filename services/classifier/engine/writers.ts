// Which arguments a program writes, deletes or re-permissions. Generic
// knowledge of common tools' argument shapes (rm deletes every operand, cp
// writes its last, chmod skips its mode …); the effect analysis then judges
// each target's place. Tools with more to say (sed, tar, curl, git …) keep
// their shapes with the rest of their knowledge in tools/; SPECS names them all.
import { allValues, expandLong, hasShort, splitArgs } from "./argv.js";
import type { Args } from "./argv.js";
import { asTargets, cwdWord, optionValueSpec } from "./targets.js";
import type { Mode, Spec, Target } from "./targets.js";
import {
  arTargets,
  compressorTargets,
  jarTargets,
  sevenZipTargets,
  tarTargets,
  unrarTargets,
  unzipTargets,
  zipTargets,
} from "./tools/archives.js";
import { cargoTargets, gofmtTargets, makeTargets, ninjaTargets } from "./tools/build.js";
import { editorTargets, viTargets, vimTargets } from "./tools/editors.js";
import { findTargets } from "./tools/find.js";
import { gitTargets } from "./tools/git.js";
import { aria2cTargets, curlTargets, httpieDownload, wgetTargets } from "./tools/http.js";
import { sshDestination, sshOptions } from "./tools/network.js";
import {
  cpioTargets,
  csplitTargets,
  ffmpegTargets,
  lz4Targets,
  magickTargets,
  mogrifyTargets,
  patchTargets,
  screenTargets,
  spongeTargets,
  tmuxTargets,
  yqTargets,
  zstdOutputs,
} from "./tools/outputs.js";
import { BESIDE } from "./tools/beside.js";
import { FORMATTERS } from "./tools/formatters.js";
import { nodeTargets, npmTargets } from "./tools/node.js";
import { sedTargets } from "./tools/sed.js";
import { sortTargets, splitTargets } from "./tools/text.js";
import type { Word } from "./types.js";
import { literalWord } from "./unwrap.js";

const recursive = (a: Args): boolean => hasShort(a.flags, /[rR]/) || a.flags.includes("--recursive");

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
  return asTargets(a.positional, recursive(a) ? "tree" : "delete");
}

/** What `cp SRC DIR/` writes: DIR/basename(SRC) (any name when SRC is computed); with `tree`, SRC's entries land under it. */
function into(dir: Word, src: Word, remoteSrc: boolean, tree = false): Target | null {
  let path = remoteSrc ? src.text.replace(/^[^/:]+:/, "") : src.text;
  if (/\/$/.test(path) && path !== "/") path = path.replace(/\/+$/, "");
  const base = path.split("/").pop() ?? "";
  if (base === "" || base === "." || base === ".." || dir.dynamic) return null;
  const text = `${dir.text.replace(/\/+$/, "")}/${src.dynamic ? "*" : base}`;
  const t: Target = { word: { ...dir, text, glob: dir.glob || src.glob || src.dynamic }, mode: "write" };
  // A source on another host (`host:path`) has no tree here to look through.
  return tree && !/^[^/]*:/.test(src.text) ? { ...t, tree: src } : t;
}

/** A source copied as its contents (`cp -r SRC/. DIR`, `SRC/..` alike, rsync's `SRC/`): its entries land in the destination itself. */
const contentsOf = (src: Word, rsyncLike: boolean): boolean => /(^|\/)\.\.?$/.test(src.text) || (rsyncLike && /\/$/.test(src.text));

/**
 * Copy-like programs: the last operand (or -t DIR) is written; when it is a
 * directory the file written is DIR/basename(SRC), so that path is a target too.
 */
/**
 * A copy-like spec whose sources' content goes with the destination when `goes(args)`: a move (`rsync
 * --remove-source-files`) or a link that shares it (`ln`, `cp -l`). Each source is a kept tree with where it goes,
 * so work git does not hold, moved or linked where it passes as regenerable, is seen (effects.ts).
 */
/** Where a moved or linked source's content goes: each destination, and its entry for the source (`mv lib dist/` makes dist/lib). */
function goesTo(src: Word, dests: readonly Word[]): Word[] {
  return dests.flatMap((d) => {
    const entry = into(d, src, false)?.word;
    return entry ? [d, entry] : [d];
  });
}

function sourcesGo(spec: Spec, goes: (a: Args) => boolean, longs: string[] = [], shares = false): Spec {
  return (raw) => {
    const out = spec(raw);
    const a = splitArgs(expandLong(raw, longs), new Set(["-S", "--suffix", "-t", "--target-directory", "-e", "--rsh", "-f", "--filter"]));
    if (!goes(a) || a.positional.length < 2) return out;
    const dest = a.positional[a.positional.length - 1] as Word;
    const sources = a.positional.slice(0, -1);
    return [
      ...out,
      ...sources.map((src) => ({
        word: src,
        mode: "tree" as Mode,
        keeps: true,
        shares,
        movedTo: goesTo(src, [dest]),
      })),
    ];
  };
}

function lastWritten(
  valueOpts: string[],
  dirOpt: string[],
  longs: string[] = [],
  remote = false,
  trees: (a: Args) => boolean = () => false,
): Spec {
  return (raw) => {
    const args = expandLong(raw, longs);
    const a = splitArgs(args, new Set([...valueOpts, ...dirOpt]));
    const noDir = a.flags.includes("--no-target-directory") || hasShort(a.flags, /T/);
    const contents = (w: Word) => remote && /\/$/.test(w.text);
    // A recursive copy (or a link to a directory) lands its source's entries under what it writes: each is judged there.
    const tree = trees(a);
    const dirs = dirOpt.flatMap((o) =>
      o.startsWith("--") ? allValues(args, "", [o]) : allValues(args, o.slice(1), [], "abdfHilLnPpRrsuvx"),
    );
    if (dirs.length)
      return dirs.flatMap((d) => [
        { word: d, mode: "write" as Mode },
        ...a.positional.map((s) => into(d, s, remote, tree)).filter((t): t is Target => t !== null),
      ]);
    const last = a.positional[a.positional.length - 1];
    const mode: Mode = a.flags.includes("--delete") || a.flags.some((f) => f.startsWith("--delete")) ? "tree" : "write";
    if (a.positional.length === 1 && last)
      return [
        { word: cwdWord(), mode },
        ...[into(cwdWord(), last, remote, tree)].filter((t): t is Target => t !== null && !contents(last)),
      ];
    if (!last) return [];
    const sources = noDir ? [] : a.positional.slice(0, -1).filter((w) => !contents(w));
    // Copied as contents (`SRC/.`, rsync's `SRC/`, `-T`): the entries land in the destination itself.
    const whole = tree ? a.positional.slice(0, -1).filter((w) => noDir || contentsOf(w, remote)) : [];
    return [
      { word: last, mode },
      ...whole.filter((s) => !s.dynamic && !/^[^/]*:/.test(s.text)).map((s) => ({ word: last, mode: "write" as Mode, tree: s })),
      ...sources.map((s) => into(last, s, remote, tree)).filter((t): t is Target => t !== null),
    ];
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
  // chown/chgrp -R with -L follow every link below (round 25: `chown -RL 1000 docs` through docs/conf → /etc).
  const follows = recursive(a) && a.flags.some((f) => /^-[a-zA-Z]*L/.test(f) && !f.startsWith("--"));
  return operands.map((word) => ({ word, mode: recursive(a) ? "perm-tree" : "perm", ...(follows ? { followsLinks: true } : {}) }));
}

function inPlace(args: readonly Word[]): Target[] {
  const a = splitArgs(args, new Set(["-e", "-f", "--expression", "--file", "-l"]));
  if (!a.flags.some((f) => f === "-i" || f.startsWith("--in-place") || (/^-[a-zA-Z]*i/.test(f) && !f.startsWith("--")))) return [];
  const scripted = a.values.has("-e") || a.values.has("-f") || a.values.has("--expression") || a.values.has("--file");
  return asTargets(scripted ? a.positional : a.positional.slice(1), "write");
}

function dd(args: readonly Word[]): Target[] {
  return args.filter((w) => w.text.startsWith("of=")).map((w) => ({ word: { ...w, text: w.text.slice(3) }, mode: "write" as Mode }));
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

/**
 * mktemp creates its file or directory from TEMPLATE: under `-p DIR` / `--tmpdir=DIR` when given (`-p /root`,
 * `--tmpdir=~/.config/autostart`), else where TEMPLATE says (`mktemp /root/XXXX`, relative to the working
 * directory); `-t` or no TEMPLATE put it in $TMPDIR (or /tmp): a scratch place.
 */
const mktempTargets: Spec = (args) => {
  const bundles = args.flatMap((w) => (/^-[a-zA-Z]{2,}$/.test(w.text) ? [...w.text.slice(1)].map((c) => ({ ...w, text: `-${c}` })) : [w]));
  const glued = bundles.flatMap((w) =>
    /^-p.+/.test(w.text)
      ? [
          { ...w, text: "-p" },
          { ...w, text: w.text.slice(2) },
        ]
      : [w],
  );
  const a = splitArgs(glued, new Set(["-p", "--suffix"]));
  const dir = a.values.get("-p") ?? a.values.get("--tmpdir");
  const template = a.positional[0];
  if (dir !== undefined && dir.text !== "") {
    const text = template === undefined || template.text.startsWith("/") ? `${dir.text}/x` : `${dir.text}/${template.text}`;
    return asTargets([{ ...dir, text }], "write");
  }
  if (template === undefined || a.flags.includes("-t") || a.flags.includes("--tmpdir")) return [];
  return asTargets([template], "write");
};

/** aws's flags that take no value; every other `--name` of an operation takes one (`--name VALUE`). */
const AWS_FLAGS = new Set([
  "--recursive",
  "--human-readable",
  "--summarize",
  "--descending",
  "--start-from-head",
  "--interleaved",
  "--dry-run",
  "--no-dry-run",
  "--debug",
  "--no-cli-pager",
  "--no-verify-ssl",
  "--no-paginate",
  "--no-sign-request",
  "--with-decryption",
  "--no-with-decryption",
]);

/**
 * aws's streaming operations write the response body to a positional
 * `outfile` (`aws s3api get-object --bucket B --key K ~/.bashrc`,
 * `get-object-torrent`, `glacier get-job-output`, `iot-data get-thing-shadow`):
 * the only operands an operation of a service's API takes (review 31: tier 0
 * under cloud-read's `get-*`). `aws s3` and `aws configure` are aws's own
 * commands, whose operands are S3 URLs or settings: not judged here.
 */
function awsTargets(args: readonly Word[]): Target[] {
  const operands: Word[] = [];
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as Word;
    if (w.text.startsWith("--")) {
      if (!w.text.includes("=") && !AWS_FLAGS.has(w.text)) i++;
      continue;
    }
    operands.push(w);
  }
  const service = operands[0]?.text ?? "";
  // The service and the operation come first (global options may stand before them); what follows is an outfile.
  const outfiles = operands.slice(2).filter((w) => w.text !== "help");
  return service === "s3" || service === "configure" ? [] : asTargets(outfiles, "write");
}

/**
 * rustc's `--emit KIND=PATH[,KIND=PATH]` writes each output to its PATH (`--emit=link=~/.bashrc`): the
 * option table knows -o and --out-dir only (review 31: tier 1). A KIND alone goes beside the crate; `-` is stdout.
 */
function rustcTargets(args: readonly Word[]): Target[] {
  const out: Target[] = [];
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as Word;
    const value = w.text === "--emit" ? args[++i] : w.text.startsWith("--emit=") ? { ...w, text: w.text.slice(7) } : undefined;
    if (!value) continue;
    for (const kind of value.text.split(",")) {
      const eq = kind.indexOf("=");
      const path = eq > 0 ? kind.slice(eq + 1) : "";
      if (path !== "" && path !== "-") out.push({ word: { ...value, text: path }, mode: "write" });
    }
  }
  return out;
}

// zig's options that name where it writes: its outputs (`-femit-bin=P`, `-femit-h=P` …), the install prefix
// and its parts, the caches. The runner table judges them as code when they stand apart (`--prefix P`).
const ZIG_WRITES = /^(-femit-[a-z0-9-]+|--prefix|-p|--prefix-(?:lib|exe|include)-dir|--cache-dir|--global-cache-dir)(?:=(.*))?$/s;

/** Where zig writes by option, glued (`-femit-bin=/root/x`, `--prefix=/opt/x`: review 31, tier 1) or not. */
function zigTargets(args: readonly Word[]): Target[] {
  const out: Target[] = [];
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as Word;
    if (w.text === "--") break;
    const m = ZIG_WRITES.exec(w.text);
    if (!m) continue;
    // -femit-bin alone writes beside the source: no value.
    const value = m[2] !== undefined ? m[2] : m[1]?.startsWith("-femit-") ? undefined : args[++i]?.text;
    if (value) out.push({ word: { ...w, text: value }, mode: "write" });
  }
  return out;
}

/**
 * rollup's output file or directory (`-o F`, `--file F`, `-d D`, `--dir D`, glued with `=`). Its `-c` takes a
 * config name only when one follows, so the option table reads `rollup -c --file /root/x.js` as `-c`'s value
 * and an input (review 31: tier 1); the places written are judged here whatever the table made of them.
 */
function rollupTargets(args: readonly Word[]): Target[] {
  const out: Target[] = [];
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as Word;
    const m = /^(-o|--file|-d|--dir)(?:=(.*))?$/s.exec(w.text);
    const value = m ? (m[2] !== undefined ? { ...w, text: m[2] } : args[++i]) : undefined;
    if (value) out.push({ word: value, mode: "write" });
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
    asTargets(splitArgs(a, new Set(["-d", "-r", "-t", "--reference", "--date"])).positional, "write").map((t) => ({ ...t, keeps: true })),
  mkdir: (a) => asTargets(splitArgs(a, new Set(["-m", "--mode", "-Z"])).positional, "write"),
  mkfifo: (a) => asTargets(splitArgs(a, new Set(["-m"])).positional, "write"),
  mktemp: mktempTargets,
  truncate: (a) => asTargets(splitArgs(a, new Set(["-s", "--size", "-r", "--reference"])).positional, "write"),
  // fallocate punches, zeroes, collapses or inserts ranges of the file's content (-p, -z, -c, -i, -d).
  fallocate: (a) => asTargets(splitArgs(a, new Set(["-o", "--offset", "-l", "--length"])).positional, "write"),
  // ed's script (from stdin) may write the file it edits (`w`).
  ed: (a) => asTargets(splitArgs(a, new Set(["-p", "--prompt"])).positional.slice(0, 1), "write"),
  tee: (a) => asTargets(splitArgs(a).positional, "write"),
  sponge: spongeTargets,
  // In-place rewriters: sd FIND REPLACE FILE… (--preview writes nothing), rpl OLD NEW FILE…, dos2unix FILE….
  sd: (a) => {
    const s = splitArgs(a, new Set(["-f", "--flags", "-n", "--max-replacements"]));
    return s.flags.some((f) => f === "-p" || f === "--preview") ? [] : asTargets(s.positional.slice(2), "write");
  },
  rpl: (a) => asTargets(splitArgs(a, new Set(["-x", "--encoding"])).positional.slice(2), "write"),
  dos2unix: (a) => asTargets(splitArgs(a).positional, "write"),
  unix2dos: (a) => asTargets(splitArgs(a).positional, "write"),
  cp: sourcesGo(
    lastWritten(
      ["-S", "--suffix"],
      ["-t", "--target-directory"],
      CP_LONGS,
      false,
      (a) => recursive(a) || hasShort(a.flags, /a/) || a.flags.includes("--archive"),
    ),
    (a) => hasShort(a.flags, /l/) || a.flags.includes("--link"),
    CP_LONGS,

    true,
  ),
  // `install -d DIR…` creates every operand as a directory (as mkdir -p does): each is written.
  install: (raw) => {
    const values = ["-m", "--mode", "-o", "--owner", "-g", "--group", "-S"];
    const a = splitArgs(expandLong(raw, INSTALL_LONGS), new Set([...values, "-t", "--target-directory"]));
    if (a.flags.includes("--directory") || hasShort(a.flags, /d/)) return asTargets(a.positional, "write");
    return lastWritten(values, ["-t", "--target-directory"], INSTALL_LONGS)(raw);
  },
  // A hard link shares its source's content: a write through the new name (an ignored `x.log`) changes it (round 23).
  ln: sourcesGo(
    lastWritten(
      ["-S", "--suffix"],
      ["-t", "--target-directory"],
      LN_LONGS,
      false,
      (a) => hasShort(a.flags, /s/) || a.flags.includes("--symbolic"),
    ),
    (a) => !(hasShort(a.flags, /s/) || a.flags.includes("--symbolic")),
    LN_LONGS,

    true,
  ),
  // An rsync:// URL names a daemon's module, like host::module: a place on another host. --remove-source-files moves.
  rsync: sourcesGo(
    (a) =>
      lastWritten(
        ["-e", "--rsh", "--exclude", "--include", "--exclude-from", "--include-from", "--filter", "-f", "--chmod", "--chown"],
        [],
        [],
        true,
        (f) => recursive(f) || hasShort(f.flags, /a/) || f.flags.includes("--archive"),
      )(a).map((t) => {
        const m = /^rsync:\/\/([^/]*)\/?(.*)$/i.exec(t.word.text);
        return m ? { ...t, word: { ...t.word, text: `${m[1]}::${m[2]}` } } : t;
      }),
    (a) => a.flags.includes("--remove-source-files"),
  ),
  // perl's and util-linux's rename, mmv: the new names are computed; the sources' content goes there.
  rename: (a) => {
    const ops = splitArgs(a).positional;
    return ops.slice(1).map((w) => ({ word: w, mode: "tree" as Mode, keeps: true, movedTo: [{ ...w, dynamic: true }] }));
  },
  mmv: (a) => {
    const ops = splitArgs(a).positional;
    return ops.length >= 2 ? [{ word: ops[0] as Word, mode: "tree" as Mode, keeps: true, movedTo: [ops[1] as Word] }] : [];
  },
  ssh: sshTargets,
  scp: lastWritten(["-P", "-i", "-o", "-F", "-c", "-l", "-J", "-S"], [], [], true),
  mv: (raw) => {
    const a = expandLong(raw, MV_LONGS);
    const s = splitArgs(a, new Set(["-S", "--suffix", "-t", "--target-directory"]));
    const ts = [...allValues(a, "t", [], "bfinuvTZ"), ...allValues(a, "", ["--target-directory"])];
    const moved = (d: Word) => s.positional.map((src) => into(d, src, false, true)).filter((t): t is Target => t !== null);
    const keep = (ws: Word[], dests: Word[]) => asTargets(ws, "tree").map((t) => ({ ...t, keeps: true, movedTo: goesTo(t.word, dests) }));
    if (ts.length) return [...keep(s.positional, ts), ...ts.flatMap((t) => [{ word: t, mode: "write" as Mode }, ...moved(t)])];
    const dest = s.positional[s.positional.length - 1];
    const sources = s.positional.slice(0, -1);
    const noDir = s.flags.includes("--no-target-directory") || hasShort(s.flags, /T/);
    const inDest = dest && !noDir ? sources.map((src) => into(dest, src, false, true)).filter((t): t is Target => t !== null) : [];
    // `mv -T SRC DEST`, or DEST a new name: SRC's entries land under DEST itself.
    const renamed = dest && sources.length === 1 && sources[0] ? [{ word: dest, mode: "write" as Mode, tree: sources[0] }] : [];
    return [...keep(sources, dest ? [dest] : []), ...(dest ? [{ word: dest, mode: "write" as Mode }] : []), ...renamed, ...inDest];
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
  sort: sortTargets,
  // Read tools with an option that writes a file: blkid's cache, lshw's dump.
  blkid: optionValueSpec(["-c"], false),
  lshw: optionValueSpec(["-dump"], false),
  uniq: (a) => asTargets(splitArgs(a, new Set(["-f", "-s", "-w"])).positional.slice(1, 2), "write"),
  tar: tarTargets,
  unzip: unzipTargets,
  "7z": sevenZipTargets,
  "7za": sevenZipTargets,
  unrar: unrarTargets,
  jar: jarTargets,
  gzip: (a) => compressorTargets(a, "gzip"),
  gunzip: (a) => compressorTargets(a, "gunzip"),
  bzip2: (a) => compressorTargets(a, "bzip2"),
  bunzip2: (a) => compressorTargets(a, "bunzip2"),
  xz: (a) => compressorTargets(a, "xz"),
  unxz: (a) => compressorTargets(a, "unxz"),
  ar: arTargets,
  lzma: (a) => compressorTargets(a, "lzma"),
  unlzma: (a) => compressorTargets(a, "unlzma"),
  uncompress: (a) => compressorTargets(a, "uncompress"),
  zstd: (a) => [...compressorTargets(a, "zstd"), ...zstdOutputs(a)],
  unzstd: (a) => [...compressorTargets(a, "unzstd"), ...zstdOutputs(a)],
  lz4: lz4Targets,
  unlz4: lz4Targets,
  cpio: cpioTargets,
  csplit: csplitTargets,
  yq: yqTargets,
  ffmpeg: ffmpegTargets,
  convert: magickTargets,
  magick: magickTargets,
  mogrify: mogrifyTargets,
  tmux: tmuxTargets,
  screen: screenTargets,
  curl: curlTargets,
  wget: wgetTargets,
  aria2c: aria2cTargets,
  // httpie's and xh's --download: the -o file, else a name the server's Content-Disposition or the URL chooses.
  http: httpieDownload,
  https: httpieDownload,
  xh: httpieDownload,
  xhs: httpieDownload,
  // `yarn pack --filename F` / `--out F` writes the tarball there (round 24: `--filename ~/.bashrc`).
  yarn: (a) =>
    a.find((w) => !w.text.startsWith("-"))?.text === "pack"
      ? [{ word: cwdWord(), mode: "write", implicit: true }, ...optionValueSpec(["--filename", "-f", "--out", "-o"], false)(a)]
      : [{ word: cwdWord(), mode: "write", implicit: true }],
  find: findTargets,
  zip: zipTargets,
  vim: vimTargets,
  vi: viTargets,
  nvim: viTargets,
  nano: editorTargets,
  emacs: editorTargets,
  micro: editorTargets,
  code: editorTargets,
  git: gitTargets,
  xxd: (a) => asTargets(splitArgs(a, new Set(["-c", "-g", "-l", "-s", "-o", "-n"])).positional.slice(1, 2), "write"),
  iconv: optionValueSpec(["-o", "--output"], false),
  // golangci-lint's `--out-format=FORMAT:PATH,…` (v1) and `--output.FORMAT.path=PATH` (v2) write each report to PATH.
  "golangci-lint": (a) => {
    const out: Target[] = [{ word: cwdWord(), mode: "write", implicit: true }];
    for (let i = 0; i < a.length; i++) {
      const w = a[i] as Word;
      const m = /^--(out-format|output\.[\w-]+\.path)(?:=(.*))?$/s.exec(w.text);
      if (!m) continue;
      const value = m[2] ?? a[++i]?.text;
      if (value === undefined) continue;
      const paths =
        m[1] === "out-format" ? value.split(",").flatMap((f) => (f.includes(":") ? [f.slice(f.indexOf(":") + 1)] : [])) : [value];
      for (const p of paths) if (p !== "" && p !== "stdout" && p !== "stderr") out.push({ word: { ...w, text: p }, mode: "write" });
    }
    return out;
  },
  // dotnet's `--logger "trx;LogFileName=PATH"` writes the report to PATH (an absolute one anywhere), beside the workspace it builds in.
  dotnet: (a) => {
    const out: Target[] = [{ word: cwdWord(), mode: "write", implicit: true }];
    for (let i = 0; i < a.length; i++) {
      const w = a[i] as Word;
      const m = /^(?:--logger|-l)(?:=(.*))?$/s.exec(w.text);
      if (!m) continue;
      const value = m[1] ?? a[++i]?.text ?? "";
      for (const [, p] of value.matchAll(/(?:^|;)\s*LogFileName\s*=\s*([^;]*)/gi))
        if (p) out.push({ word: { ...w, text: p }, mode: "write" });
    }
    return out;
  },
  aws: awsTargets,
  rustc: rustcTargets,
  rollup: rollupTargets,
  zig: zigTargets,
  // openssl's subcommands (rand, req, genpkey, x509, enc …) write -out.
  openssl: optionValueSpec(["-out", "-keyout"], false),
  split: splitTargets,
  sdiff: optionValueSpec(["-o", "--output"], false),
  // journalctl's maintenance options delete or rotate the journal.
  journalctl: (a) =>
    a.some((w) => /^--(vacuum-(size|time|files)|rotate|flush|relinquish-var|setup-keys)\b/.test(w.text))
      ? [{ word: literalWord("/var/log/journal"), mode: "delete" }]
      : [],
  make: makeTargets,
  ninja: ninjaTargets,
  cargo: cargoTargets,
  gofmt: gofmtTargets,
  goimports: gofmtTargets,
  npm: npmTargets,
  node: nodeTargets,
  patch: patchTargets,
  // Python's tools that write where their operands say: a venv's directory (emptied first with --clear),
  // json.tool's second operand, the __pycache__ beside what compileall and py_compile compile.
  venv: venvTargets,
  virtualenv: venvTargets,
  "json.tool": (a) => asTargets(splitArgs(a, new Set(["--indent"])).positional.slice(1, 2), "write"),
  compileall: (a) =>
    asTargets(splitArgs(a, new Set(["-d", "-s", "-p", "-r", "-j", "-x", "-i", "-o", "--invalidation-mode"])).positional, "write"),
  py_compile: (a) => asTargets(splitArgs(a).positional, "write"),
  // uv replaces an environment already at the path: judged as emptying it.
  uv: (a) => (a[0]?.text === "venv" ? venvTargets(a.slice(1), true) : []),
  ...FORMATTERS,
  ...BESIDE,
};

/** ssh appends a new host's key to the first UserKnownHostsFile (`-o UserKnownHostsFile=~/.bashrc`). */
function sshTargets(args: readonly Word[]): Target[] {
  if (!args.some((w) => /UserKnownHostsFile/i.test(w.text))) return [];
  return sshOptions(args, sshDestination(args))
    .config.filter(([key, value]) => key === "userknownhostsfile" && !/^\s*none\s*$/i.test(value))
    .map(([, value, w]) => ({ word: { ...w, text: value.trim().split(/\s+/)[0] ?? "" }, mode: "write" as Mode }));
}

function venvTargets(a: readonly Word[], replaces = false): Target[] {
  const s = splitArgs(a, new Set(["-p", "--python", "--prompt", "--seed", "--index-url"]));
  const clears = replaces || s.flags.includes("--clear");
  return asTargets(s.positional, clears ? "tree" : "write");
}

/** The targets a program writes; null when the program has no known argument shape. */
export function targetsOf(name: string, args: readonly Word[]): Target[] | null {
  // Own keys only: a command named `constructor` or `__proto__` is not in the table.
  const spec = Object.hasOwn(SPECS, name) ? SPECS[name] : undefined;
  return spec ? spec(args) : null;
}

// The files tools write through their operands and output options, for the
// writer table (writers.ts): sponge, patch, csplit, lz4/zstd, yq -i, cpio,
// ffmpeg and ImageMagick, tmux's and screen's buffer dumps. Each target is
// judged by its place in the effect analysis.
import type { Analysis } from "../analyzers.js";
import { asTargets, cwdWord } from "../targets.js";
import type { Mode, Spec, Target } from "../targets.js";
import type { Word } from "../types.js";
import { dynamicWord, literalWord } from "../unwrap.js";
import { urlsCarry } from "./http.js";

interface Parsed {
  /** Options in order: `-x` or `--long`, with their value (null for a flag). */
  opts: [string, Word | null][];
  operands: Word[];
}

/**
 * getopt_long's reading of `args`: short bundles split up to a letter in
 * `shortValues` (its value is the rest of the word or the next word), long
 * options in `longValues` take `=V` or the next word; `--` ends options.
 * With `firstOnly`, options end at the first operand (POSIX order).
 */
export function getopt(args: readonly Word[], shortValues: string, longValues: ReadonlySet<string>, firstOnly = false): Parsed {
  const out: Parsed = { opts: [], operands: [] };
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as Word;
    const t = w.text;
    if (t === "--" && !w.dynamic) {
      out.operands.push(...args.slice(i + 1));
      break;
    }
    if (w.dynamic || !t.startsWith("-") || t === "-") {
      out.operands.push(w);
      if (firstOnly) {
        out.operands.push(...args.slice(i + 1));
        break;
      }
      continue;
    }
    if (t.startsWith("--")) {
      const eq = t.indexOf("=");
      const name = eq > 0 ? t.slice(0, eq) : t;
      out.opts.push([name, eq > 0 ? { ...w, text: t.slice(eq + 1) } : longValues.has(name) ? (args[++i] ?? null) : null]);
      continue;
    }
    for (let k = 1; k < t.length; k++) {
      const c = t[k] as string;
      if (!shortValues.includes(c)) {
        out.opts.push([`-${c}`, null]);
        continue;
      }
      out.opts.push([`-${c}`, k + 1 < t.length ? { ...w, text: t.slice(k + 1) } : (args[++i] ?? null)]);
      break;
    }
  }
  return out;
}

const values = (p: Parsed, names: readonly string[]): Word[] =>
  p.opts.filter(([o, v]) => v !== null && names.includes(o)).map(([, v]) => v as Word);
const has = (p: Parsed, names: readonly string[]): boolean => p.opts.some(([o]) => names.includes(o));
const write = (word: Word, mode: Mode = "write"): Target => ({ word, mode });
/** Files named PREFIX… (`csplit -f P` writes P00, P01 …; `patch -B P` its backups). */
const prefixed = (w: Word): Target => write({ ...w, text: `${w.text}*`, glob: true });
/** DIR/NAME, NAME as written when DIR is the working directory or NAME is absolute. */
const under = (dir: Word | undefined, w: Word): Word =>
  dir === undefined || /^[/~]/.test(w.text)
    ? w
    : { ...w, text: `${dir.text.replace(/\/+$/, "")}/${w.text}`, dynamic: w.dynamic || dir.dynamic };

/** `sponge [-a] FILE`: soaks up its input, then writes (or appends to) FILE. */
export const spongeTargets: Spec = (args) => asTargets(getopt(args, "", new Set()).operands.slice(0, 1), "write");

const PATCH_LONGS = new Set([
  "--input",
  "--output",
  "--directory",
  "--strip",
  "--ifdef",
  "--fuzz",
  "--reject-file",
  "--prefix",
  "--basename-prefix",
  "--suffix",
  "--version-control",
  "--get",
  "--quoting-style",
  "--reject-format",
  "--read-only",
]);

/** `git apply`'s options that only read the diff (`--check`, `--stat`, `--numstat`, `--summary`, without `--apply`). */
export function diffReadOnly(words: readonly string[]): boolean {
  return words.some((w) => /^--(?:check|stat|numstat|summary)$/.test(w)) && !words.includes("--apply");
}

/** patch's options (the value-taking short letters and the long ones) and operands. */
export const patchArgs = (args: readonly Word[]) => getopt(args, "iodpDFrBYzVg", PATCH_LONGS);

/**
 * `patch [ORIGINAL [PATCH]]`, `-i PATCH`: ORIGINAL is rewritten (in -d DIR);
 * -o OUT, -r REJECTS and -B PREFIX (backups) are written; without ORIGINAL
 * or -o the files the patch names are, in -d DIR or the working directory.
 */
export const patchTargets: Spec = (args) => {
  const p = patchArgs(args);
  const dir = values(p, ["-d", "--directory"]).at(-1);
  const out: Target[] = [];
  const original = p.operands[0];
  if (original) out.push(write(under(dir, original)));
  for (const o of values(p, ["-o", "--output"])) if (o.text !== "-") out.push(write(under(dir, o)));
  for (const r of values(p, ["-r", "--reject-file"])) if (r.text !== "-") out.push(write(under(dir, r)));
  for (const b of values(p, ["-B", "--prefix"])) out.push(prefixed(under(dir, b)));
  if (dir) out.push(write(dir));
  if (!original && !has(p, ["-o", "--output"]) && !dir) out.push({ word: cwdWord(), mode: "write", implicit: true });
  return out;
};

/** `csplit [-f PREFIX] FILE PATTERN…`: PREFIX00, PREFIX01 … (xx00 … by default). */
export const csplitTargets: Spec = (args) => {
  const p = getopt(args, "fbn", new Set(["--prefix", "--suffix-format", "--digits"]));
  const prefixes = values(p, ["-f", "--prefix"]);
  return (prefixes.length ? prefixes : [literalWord("xx")]).map(prefixed);
};

/**
 * lz4 and zstd: the output operand (`lz4 -d IN OUT`), -o OUT, the output
 * directories; one operand writes beside it (IN.lz4, or IN without it).
 * --stdout, --test and --list write nothing.
 */
export const lz4Targets: Spec = (args) => {
  const p = getopt(args, "oBD", new Set(["--output", "--output-dir-flat", "--output-dir-mirror", "--dict"]));
  if (has(p, ["-c", "--stdout", "--to-stdout", "-t", "--test", "--list", "-l"])) return [];
  const files = p.operands.filter((w) => w.text !== "-");
  // --rm deletes each input once its output is written (round 24: `lz4 --rm untracked.txt dist/x` lost it).
  const two = files.length === 2 && !has(p, ["-m", "--multiple", "-r"]);
  const removed: Target[] = has(p, ["--rm"]) ? (two ? files.slice(0, 1) : files).map((w) => ({ word: w, mode: "delete" })) : [];
  const out: Target[] = values(p, ["-o", "--output", "--output-dir-flat", "--output-dir-mirror"]).map((w) => write(w));
  if (out.length) return [...removed, ...out];
  if (two) return [...removed, write(files[1] as Word)];
  // Each input's output beside it: IN.lz4 compressed, IN without .lz4 decompressed.
  const decompress = has(p, ["-d", "--decompress", "--uncompress"]);
  return [
    ...removed,
    ...files.map((w) =>
      write({ ...w, text: decompress || /\.lz4$/.test(w.text) ? w.text.replace(/\.lz4$/, "") || w.text : `${w.text}.lz4` }),
    ),
  ];
};

/** zstd: its compressor's shape (every operand replaced) and the output directories. */
export const zstdOutputs: Spec = (args) =>
  values(getopt(args, "oD", new Set(["--output-dir-flat", "--output-dir-mirror"])), ["--output-dir-flat", "--output-dir-mirror"]).map((w) =>
    write(w),
  );

/** `yq -i EXPR FILE…` / `--inplace`: the files are rewritten (mikefarah's `eval`/`e` first; python yq's too). */
export const yqTargets: Spec = (args) => {
  const p = getopt(
    args,
    "oIp",
    new Set(["--output-format", "--input-format", "--indent", "--expression", "--from-file", "--front-matter"]),
  );
  if (!has(p, ["-i", "--inplace", "--in-place"])) return [];
  let operands = p.operands;
  if (/^(eval|e|eval-all|ea)$/.test(operands[0]?.text ?? "")) operands = operands.slice(1);
  if (has(p, ["--expression", "--from-file"])) return asTargets(operands, "write");
  // One operand: the file itself when it looks like one (`yq -i config.yaml`), else the expression alone.
  if (operands.length === 1) {
    const only = operands[0] as Word;
    return /^[~/]|\.(ya?ml|json|xml|toml|properties|csv|tsv|ini)$/i.test(only.text) ? [write(only)] : [];
  }
  return asTargets(operands.slice(1), "write");
};

/**
 * cpio: copy-in (-i) extracts members whose names may be absolute (GNU cpio
 * keeps a leading `/` unless --no-absolute-filenames): a place not known
 * here, beside the working directory (or -D DIR) it fills; pass-through (-p)
 * fills its directory operand; copy-out writes its archive to -O/-F FILE.
 */
export const cpioTargets: Spec = (args) => {
  const p = getopt(
    args,
    "DEFHIMORVC",
    new Set(["--directory", "--pattern-file", "--file", "--format", "--message", "--owner", "--rsh-command", "--block-size", "--io-size"]),
  );
  const mode = p.opts.find(([o]) => /^(-i|-o|-p|--extract|--create|--pass-through)$/.test(o))?.[0];
  const dir = values(p, ["-D", "--directory"]).at(-1) ?? cwdWord();
  if (has(p, ["-t", "--list"])) return [];
  if (mode === "-i" || mode === "--extract") {
    const out: Target[] = [{ word: dir, mode: "write", fills: true }];
    if (!has(p, ["--no-absolute-filenames"])) out.push(write(dynamicWord("$MEMBER (an archive member's name, absolute names kept)")));
    return out;
  }
  if (mode === "-p" || mode === "--pass-through") return p.operands.slice(0, 1).map((w) => ({ word: w, mode: "write", fills: true }));
  return values(p, ["-O", "-F", "--file"]).map((w) => write(w));
};

// ffmpeg's options that take no value (every other `-name` takes the next word).
export const FFMPEG_FLAGS =
  /^-(y|n|an|vn|sn|dn|hide_banner|shortest|stats|nostats|nostdin|show_format|show_streams|show_frames|show_packets|count_frames|pretty|copyts|re|benchmark|report|ignore_unknown|accurate_seek|noaccurate_seek|autorotate|noautorotate|dump|hex|xerror|debug_ts|stdin|version|formats|codecs|encoders|decoders|filters|pix_fmts|h|help)$/;
/** Outputs that are not files: stdout, a pipe, the null muxer's name. */
const FFMPEG_NOT_FILE = /^(-|pipe:\d*|\/dev\/null|nul)$/;
/** A URL ffmpeg opens to send the output (file: is a file). */
const NET_URL = /^(?!file:)[a-z][a-z0-9+.-]*:\/\//i;

/** ffmpeg's output operands: words that are neither options nor their values (inputs are -i values). */
function ffmpegOutputs(args: readonly Word[]): Word[] {
  const out: Word[] = [];
  let tee = false;
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as Word;
    if (!w.dynamic && w.text.startsWith("-") && w.text !== "-") {
      if (w.text === "-f" && args[i + 1]?.text === "tee") tee = true;
      if (!FFMPEG_FLAGS.test(w.text)) i++;
      continue;
    }
    if (FFMPEG_NOT_FILE.test(w.text)) continue;
    // The tee muxer's output is `[OPTIONS]OUT|[OPTIONS]OUT…`: each part is an output of its own.
    if (tee && w.text.includes("|")) {
      for (const part of w.text.split("|")) {
        const name = part.replace(/^\[[^\]]*\]/, "");
        if (name !== "" && !FFMPEG_NOT_FILE.test(name)) out.push({ ...w, text: name });
      }
    } else out.push(w);
  }
  return out;
}

/** The values of ffmpeg's options named in `names`. */
function ffmpegValues(args: readonly Word[], names: RegExp): Word[] {
  const out: Word[] = [];
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as Word;
    if (w.dynamic || !w.text.startsWith("-") || w.text === "-") continue;
    if (names.test(w.text) && args[i + 1]) out.push(args[i + 1] as Word);
    if (!FFMPEG_FLAGS.test(w.text)) i++;
  }
  return out;
}

/** Options naming files ffmpeg writes besides its outputs (the pass log is PREFIX-N.log, the segments a pattern). */
const FFMPEG_WRITES = /^-(vstats_file|segment_list|hls_segment_filename|hls_fmp4_init_filename|dash_segment_filename)$/;
const FFMPEG_PREFIXES = /^-passlogfile$/;

export const ffmpegTargets: Spec = (args) => [
  ...ffmpegOutputs(args)
    .filter((w) => !NET_URL.test(w.text))
    .map((w) => write({ ...w, text: w.text.replace(/^file:(?!\/\/)/, "") })),
  ...ffmpegValues(args, FFMPEG_WRITES)
    .filter((w) => !NET_URL.test(w.text))
    .map((w) => (/%\d*d/.test(w.text) ? write({ ...w, text: w.text.replace(/%\d*d/g, "*"), glob: true }) : write(w))),
  ...ffmpegValues(args, FFMPEG_PREFIXES).map(prefixed),
];

/**
 * ffmpeg's output to a network URL (`http://host/up`, `rtmp://`, `tcp://`): the media is uploaded;
 * an input URL (`-i http://host/$(cat f)`) carries what curl's would (urlsCarry).
 */
export function ffmpegAnalysis(name: string, args: readonly Word[]): Analysis | null {
  if (!args.some((w) => w.text.includes(":"))) return null;
  const inputURL = (w: Word) => w.dynamic && /^[a-z][a-z0-9+.-]*:\/\//i.test(w.text);
  // ffprobe and ffplay read their operands (and -i): every one is an input.
  if (name !== "ffmpeg") return urlsCarry(args.filter(inputURL));
  // The tee muxer's outputs are `|`-separated, each after its `[options]` (round 28: `-f tee "[f=mp4]http://…"`).
  const url = ffmpegOutputs(args)
    .flatMap((w) => w.text.split("|").map((part) => ({ ...w, text: part.replace(/^\[[^\]]*\]/, "") })))
    .find((w) => NET_URL.test(w.text));
  if (url) return { tier: 3, rule: "analysis:net-upload", reason: `ffmpeg sends its output to another system: ${url.text}`, kind: "floor" };
  return urlsCarry(ffmpegValues(args, /^-i$/).filter(inputURL));
}

/** Split `text` at any of `seps` outside quotes, removing one level of `'…'` quoting and backslash escapes (av_get_token). */
function ffmpegTokens(text: string, seps: string): string[] {
  const out: string[] = [];
  let cur = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (c === "\\") cur += text[++i] ?? "";
    else if (c === "'") {
      const end = text.indexOf("'", i + 1);
      cur += text.slice(i + 1, end < 0 ? undefined : end);
      i = end < 0 ? text.length : end;
    } else if (seps.includes(c)) {
      out.push(cur);
      cur = "";
    } else cur += c;
  }
  out.push(cur);
  return out;
}

/**
 * The file names inside an ffmpeg word besides the word itself: what follows each protocol prefix (`file:F`,
 * `cache:file:F`, `subfile,,start,0,end,0,,:F`), each part of `concat:A|B`, and each value of a filter graph
 * (`drawtext=textfile=F`, `subtitles=F`, `movie=F`), unquoted at the graph's level and again at its options'. The
 * effect analysis follows their links (round 30: `-i file:notes`, notes a link to a key, was read at tier 1).
 */
export function ffmpegNames(w: Word): Word[] {
  if (w.dynamic || !/[:=|,;[\]']/.test(w.text)) return [];
  const names = new Set<string>();
  const t = w.text;
  for (let at = t.indexOf(":"); at >= 0; at = t.indexOf(":", at + 1)) names.add(t.slice(at + 1));
  for (const part of ffmpegTokens(t, ",;[]")) for (const name of ffmpegTokens(part, ":=|")) names.add(name);
  for (const name of t.split(/[,;[\]:=|]/)) names.add(name);
  names.delete("");
  names.delete(t);
  return [...names].slice(0, 64).map((text) => ({ ...w, text, glob: false }));
}

/**
 * ffmpeg filters that load a shared object named by path (`-vf frei0r=/tmp/x.so`, `-af ladspa=file=/tmp/x.so:p`),
 * or a filter graph file from outside the workspace: native code no one has seen (review 34).
 */
export function ffmpegPlugins(args: readonly Word[]): Analysis | null {
  const hit =
    args.find((w) => /\b(?:frei0r(?:_src)?|ladspa)\s*=[^,;[\]]*\//.test(w.text)) ??
    // sendcmd's commands from a file outside the workspace (round 28).
    args.find((w) => /\b[za]?sendcmd\s*=\s*(?:[^,;[\]]*:)?(?:f|filename)\s*=\s*['"]?(?:\/|~|[^,;:]*\.\.\/)/.test(w.text)) ??
    // A filter graph read from a file outside the workspace (`-filter_script /srv/x`) may load one as well.
    args.find(
      (w, i) =>
        /^-\/?filter(?:_complex)?(?:_script)?(?::\S*)?$/.test(w.text) &&
        /^(?:\/|~)|(?:^|\/)\.\.(?:\/|$)/.test(args[i + 1]?.text ?? "") &&
        /script|^-\//.test(w.text),
    );
  if (!hit) return null;
  return {
    tier: 2,
    rule: "analysis:ffmpeg-plugin",
    reason: `an ffmpeg filter loads a shared object from a path (or a graph from elsewhere): ${hit.text}`,
    kind: "floor",
  };
}

/**
 * ImageMagick opens a file name starting with `|` (or `FORMAT:|…`) as a pipe
 * through a shell (`convert '|touch x' out.png`, `convert in.png 'png:|sh'`):
 * the rest runs as a command.
 */
export function magickAnalysis(args: readonly Word[]): Analysis | null {
  const script = args.find((w) => MAGICK_SCRIPT.test(w.text));
  if (script)
    return {
      tier: 2,
      rule: "analysis:magick-script",
      reason: `ImageMagick runs a script that reads, writes or deletes any file (MSL, magick -script, ephemeral: deletes what it reads): ${script.text}`,
      kind: "floor",
    };
  // Round 28: a file of file names (`@list`: each may be `msl:`, `ephemeral:` or `|cmd`), a file's text drawn into
  // the image (`text:F`, `caption:@F`, `label:@F`: a key behind a link), an MVG drawing (`image over … 'ephemeral:F'`).
  const indirect = args.find((w) => /^(?:@|(?:caption|label|pango):@|text:|mvg:)|\.mvg(?:\[.*\])?$/i.test(w.text));
  if (indirect)
    return {
      tier: 2,
      rule: "analysis:magick-indirect",
      reason: `ImageMagick reads a list of files, a file's text or a drawing that names files: ${indirect.text}`,
      kind: "floor",
    };
  const pipe = args.find((w) => w.text.startsWith("|") || w.text.includes(":|"));
  if (!pipe) return null;
  const at = pipe.text.indexOf("|");
  return {
    tier: 2,
    rule: "analysis:magick-pipe",
    reason: `ImageMagick runs a file name starting with | as a shell command: ${pipe.text}`,
    kind: "floor",
    code: pipe.text.slice(at + 1),
  };
}

/**
 * ImageMagick inputs that are programs or act on the file system (review 34): an MSL script (`msl:x`, `x.msl`:
 * `<read>`/`<write>` any file), `-script FILE`, and `ephemeral:FILE`, which deletes FILE once read.
 */
const MAGICK_SCRIPT = /^(?:msl:|ephemeral:|-script$)|\.msl(?:\[.*\])?$/i;

// ImageMagick's options that take no value; the others take the next word.
const MAGICK_FLAGS =
  /^[-+](strip|flatten|trim|auto-orient|ping|verbose|negate|flip|flop|monochrome|normalize|equalize|despeckle|enhance|repage|append|coalesce|adjoin|antialias|alpha-to-image|auto-level|auto-gamma|clone|delete|swap|insert|reverse|separate|combine|mosaic|deconstruct|identify|quiet|regard-warnings|version|help|list)$/;
const MAGICK_SUBS = new Set(["convert", "composite", "montage", "compare", "conjure", "stream", "import"]);

/** `convert … OUT`, `magick [convert] … OUT`: the last operand (an optional `FORMAT:` before it) is written. */
export const magickTargets: Spec = (args) => {
  let rest = args;
  if (MAGICK_SUBS.has(rest[0]?.text ?? "")) rest = rest.slice(1);
  if (/^(identify|mogrify)$/.test(rest[0]?.text ?? "")) return rest[0]?.text === "mogrify" ? mogrifyTargets(rest.slice(1)) : [];
  const operands: Word[] = [];
  for (let i = 0; i < rest.length; i++) {
    const w = rest[i] as Word;
    if (!w.dynamic && /^[-+][a-z]/i.test(w.text)) {
      if (!MAGICK_FLAGS.test(w.text)) i++;
      continue;
    }
    operands.push(w);
  }
  const last = operands.length >= 2 ? operands.at(-1) : undefined;
  if (!last || last.text === "-" || /^[A-Za-z0-9]{2,}:-$/.test(last.text)) return [];
  return [write({ ...last, text: last.text.replace(/^[A-Za-z0-9]{2,}:(?!\/\/)/, "") })];
};

/** `mogrify … FILE…`: every file is rewritten in place (into -path DIR when given). */
export function mogrifyTargets(args: readonly Word[]): Target[] {
  const out: Target[] = [];
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as Word;
    if (!w.dynamic && /^[-+][a-z]/i.test(w.text)) {
      if (w.text === "-path" && args[i + 1]) out.push({ word: args[i + 1] as Word, mode: "write", fills: false });
      if (!MAGICK_FLAGS.test(w.text)) i++;
      continue;
    }
    out.push(write(w));
  }
  return out;
}

/**
 * tmux's commands: global options, then commands separated by `;` words
 * (`tmux ls \; run-shell X`, `';'`); a word ending in an unescaped `;`
 * ends its command too (`ls\;` reaches tmux as `ls;`).
 */
function tmuxCommands(args: readonly Word[]): Word[][] {
  const words = getopt(args, "LSfcT", new Set(), true).operands;
  const out: Word[][] = [[]];
  for (const w of words) {
    const cur = out.at(-1) as Word[];
    if (!w.dynamic && w.text === ";") out.push([]);
    else if (!w.dynamic && w.text.endsWith(";") && !w.text.endsWith("\\;")) {
      cur.push({ ...w, text: w.text.slice(0, -1) });
      out.push([]);
    } else cur.push(w);
  }
  return out.filter((c) => c.length > 0);
}

/** `tmux save-buffer [-a] [-b NAME] FILE`: the buffer (another pane's text) written to FILE, in each chained command. */
export const tmuxTargets: Spec = (args) =>
  tmuxCommands(args).flatMap(([sub, ...rest]) =>
    /^(save-buffer|saveb)$/.test(sub?.text ?? "")
      ? getopt(rest, "b", new Set())
          .operands.filter((w) => w.text !== "-")
          .slice(0, 1)
          .map((w) => write(w))
      : [],
  );

/** tmux commands that only print sessions, windows, panes or options. */
const TMUX_READS =
  /^(ls|list-sessions|lsw|list-windows|lsp|list-panes|display|display-message|has|has-session|show|show-options|showw|show-window-options)$/;

/**
 * tmux capture-pane: another pane's screen and scrollback (what was typed or
 * printed there) printed here. Commands chained after the first (`ls \;
 * run-shell X`, `\; send-keys …`) are judged too: any but a read runs or
 * writes what the first command's rule does not show. A `#(…)` format runs a
 * shell command.
 */
export function tmuxAnalysis(args: readonly Word[]): Analysis | null {
  const cmds = tmuxCommands(args);
  const subs = cmds.map((c) => c[0]?.text ?? "");
  const shell = args.find((w) => w.text.includes("#("));
  if (shell)
    return {
      tier: 2,
      rule: "analysis:tmux-chain",
      reason: "a tmux format's #(…) runs a shell command",
      kind: "floor",
      code: shell.text.slice(shell.text.indexOf("#(") + 2).replace(/\)[^)]*$/, ""),
    };
  if (subs.some((s) => /^(capture-pane|capturep)$/.test(s)))
    return {
      tier: 2,
      rule: "analysis:pane-capture",
      reason: "tmux capture-pane reads another terminal's screen and scrollback (passwords, tokens typed or printed there)",
      kind: "floor",
    };
  const other = cmds.length > 1 ? cmds.find((c) => (c[0] as Word).dynamic || !TMUX_READS.test((c[0] as Word).text)) : undefined;
  if (other)
    return {
      tier: 2,
      rule: "analysis:tmux-chain",
      reason: `tmux runs a chained command that is not a read: ${other.map((w) => w.text).join(" ")}`,
      kind: "floor",
    };
  return null;
}

/** `screen -X hardcopy FILE`, `-X logfile FILE`, `-L -Logfile FILE`: a window's text written to FILE. */
export const screenTargets: Spec = (args) => {
  const out: Target[] = [];
  for (let i = 0; i < args.length; i++) {
    const t = (args[i] as Word).text;
    if (/^-Logfile$/.test(t) && args[i + 1]) out.push(write(args[i + 1] as Word));
    if (/^(hardcopy|logfile|log|writebuf|bufferfile|dumptermcap)$/.test(t) && i > 0) {
      const file = args.slice(i + 1).find((w) => !/^-[a-z]$/.test(w.text) && !/^(on|off|flush)$/.test(w.text));
      if (file) out.push(write(file));
      else if (t === "hardcopy") out.push(write(literalWord("hardcopy.0")));
    }
  }
  return out;
};

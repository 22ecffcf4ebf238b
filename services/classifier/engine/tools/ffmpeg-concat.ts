// ffmpeg's concat demuxer (`-f concat -i list.txt`, or a list that begins
// `ffconcat version 1.0`, which ffmpeg finds by itself) reads every file the
// list names; with `-safe 0` that is any path or protocol (`file
// '/home/u/.ssh/id_rsa'`, `file 'subfile,,…:/etc/shadow'`), and even in safe
// mode a name relative to the list's own directory. So the list is judged as
// the read it stands for (review 38): one from outside the workspace, one the
// same line downloads, or (with `-safe 0`) one whose text is not known here,
// that names a secret file, a protocol or another list, is 2.
import { posix } from "node:path";
import { downloadedPath } from "../downloaded.js";
import { readScript } from "../host-paths.js";
import { resolvePlace, secretPlace } from "../paths.js";
import { workspaceScript } from "../script-place.js";
import type { Context, Word } from "../types.js";
import { literalWord } from "../unwrap.js";
import { FFMPEG_FLAGS } from "./outputs.js";

const CONCAT_HEADER = /^\s*ffconcat\s+version\b/;
/** An input that is a stream (its text is not known here). */
const STREAM = /^(?:-|pipe:\d*|\/dev\/stdin|\/dev\/fd\/\d+|\/proc\/(?:self|thread-self|\d+)\/fd\/\d+|fd:\d*)$/;
/** A protocol before a path (`file:`, `subfile,,…:`, `concat:`, `http:`), not a bare relative or absolute name. */
const PROTOCOL = /^[a-z][a-z0-9_,+.-]*:/i;

/** The input files of an ffmpeg (ffprobe, ffplay) command line, each with the format and `-safe` value given before it. */
function inputs(name: string, args: readonly Word[]): Array<{ input: Word; format: Word | null; safe: Word | null }> {
  const out: Array<{ input: Word; format: Word | null; safe: Word | null }> = [];
  let format: Word | null = null;
  let safe: Word | null = null;
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as Word;
    if (w.dynamic || !w.text.startsWith("-") || w.text === "-") {
      // ffprobe and ffplay take their input as an operand too.
      if (name !== "ffmpeg") out.push({ input: w, format, safe });
      continue;
    }
    const value = args[i + 1];
    if (w.text === "-f" && value) format = value;
    else if (w.text === "-safe" && value) safe = value;
    else if (w.text === "-i" && value) {
      out.push({ input: value, format, safe });
      format = null;
      safe = null;
    }
    if (!FFMPEG_FLAGS.test(w.text)) i++;
  }
  return out;
}

/** The names a concat list's `file` lines give, unquoted as ffmpeg's tokenizer does (quotes, backslash escapes). */
function listed(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*file\s+(.*?)\s*$/.exec(line);
    if (!m) continue;
    out.push((m[1] as string).replace(/'([^']*)'|\\(.)/g, (_x, q: string | undefined, e: string | undefined) => q ?? e ?? ""));
  }
  return out;
}

/** Why ffmpeg's concat demuxer reads more than the workspace's own files, or null. */
export function ffmpegConcat(name: string, args: readonly Word[], ctx: Context): string | null {
  for (const { input, format, safe } of inputs(name, args)) {
    const concat = format !== null && (format.dynamic || format.text === "concat");
    const unsafe = safe !== null && (safe.dynamic || safe.text !== "1");
    if (input.dynamic || STREAM.test(input.text)) {
      if (concat && unsafe)
        return `ffmpeg reads the files a concat list names (-safe ${safe?.text}), and the list ${input.text} is not known here`;
      continue;
    }
    if (PROTOCOL.test(input.text)) continue;
    const p = resolvePlace(input, ctx);
    const text = p.path === null ? null : readScript(p.path);
    if (!concat && !(text !== null && CONCAT_HEADER.test(text))) continue;
    if (p.path === null || downloadedPath(p.path, ctx) || !workspaceScript(p, ctx))
      return `ffmpeg reads the files the concat list ${input.text} names, and the list is not the workspace's own`;
    if (text === null) {
      if (unsafe) return `ffmpeg reads the files the concat list ${input.text} names (-safe 0), and the list is not there to read yet`;
      continue;
    }
    const dir = posix.dirname(p.path);
    for (const entry of listed(text)) {
      if (unsafe && PROTOCOL.test(entry)) return `the concat list ${input.text} names ${entry}: a protocol, not a file of the workspace`;
      const at = resolvePlace(literalWord(entry), { ...ctx, cwd: dir });
      if (secretPlace(at)) return `the concat list ${input.text} names ${entry}: a secret file`;
      const nested = at.path === null ? null : readScript(at.path);
      if (unsafe && nested !== null && CONCAT_HEADER.test(nested)) return `the concat list ${input.text} names another list, ${entry}`;
    }
  }
  return null;
}

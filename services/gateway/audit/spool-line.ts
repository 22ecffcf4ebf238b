// The spool's line format and a chunked line scanner.
//
// A line is `<crc32 of the JSON, 8 lowercase hex> <JSON>\n`. The checksum is
// for torn and damaged writes, not for tampering: whoever can write the spool
// can recompute it (the executor's hash-chained journal is the tamper record).
// How it fails: `decodeLine` never throws; it says why a line is unusable.
import type { FileHandle } from "node:fs/promises";
import { crc32 } from "node:zlib";

const NEWLINE = 0x0a;
const SPACE = 0x20;
const HEX8 = /^[0-9a-f]{8}$/;
/** Read size for scanning; larger than the largest record line. */
export const SCAN_CHUNK_BYTES = 4 * 1024 * 1024;

export function encodeLine(json: string): Buffer {
  const body = Buffer.from(json, "utf8");
  const head = Buffer.from(crc32(body).toString(16).padStart(8, "0") + " ", "ascii");
  return Buffer.concat([head, body, Buffer.from("\n")]);
}

export type DecodedLine = { ok: true; json: string } | { ok: false; reason: string };

/** `line` excludes the trailing newline. */
export function decodeLine(line: Buffer): DecodedLine {
  if (line.length < 10 || line[8] !== SPACE) return { ok: false, reason: "malformed line" };
  const hex = line.subarray(0, 8).toString("ascii");
  if (!HEX8.test(hex)) return { ok: false, reason: "malformed checksum" };
  const body = line.subarray(9);
  if (crc32(body) !== Number.parseInt(hex, 16)) return { ok: false, reason: "checksum mismatch" };
  return { ok: true, json: body.toString("utf8") };
}

export interface ScanEnd {
  /** Offset just past the last newline-terminated line visited. */
  pos: number;
  /** Bytes after `pos` up to `end` with no newline (a torn tail), when the scan reached `end`. */
  tail: number;
}

/**
 * Visits newline-terminated lines in [start, end). `visit` gets the line
 * (without newline) and the offset after it; returning false stops the scan.
 * A run of more than SCAN_CHUNK_BYTES without a newline is visited as one
 * (undecodable) line so the scan always makes progress.
 */
export async function scanLines(
  fh: FileHandle,
  start: number,
  end: number,
  visit: (line: Buffer, after: number) => boolean,
): Promise<ScanEnd> {
  let pos = start;
  const buf = Buffer.allocUnsafe(SCAN_CHUNK_BYTES);
  while (pos < end) {
    const want = Math.min(SCAN_CHUNK_BYTES, end - pos);
    const { bytesRead } = await fh.read(buf, 0, want, pos);
    if (bytesRead === 0) break;
    const chunk = buf.subarray(0, bytesRead);
    let lineStart = 0;
    let nl = chunk.indexOf(NEWLINE, lineStart);
    if (nl === -1) {
      if (pos + bytesRead >= end) return { pos, tail: end - pos };
      if (!visit(Buffer.from(chunk), pos + bytesRead)) return { pos: pos + bytesRead, tail: 0 };
      pos += bytesRead;
      continue;
    }
    while (nl !== -1) {
      const after = pos + nl + 1;
      if (!visit(chunk.subarray(lineStart, nl), after)) return { pos: after, tail: 0 };
      lineStart = nl + 1;
      nl = chunk.indexOf(NEWLINE, lineStart);
    }
    pos += lineStart;
  }
  return { pos, tail: Math.max(0, end - pos) };
}

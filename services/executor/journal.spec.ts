import { createHash } from "node:crypto";
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { verifyJournal } from "../../cli/journal-verify.js";
import { openJournal } from "./journal.js";

const root = mkdtempSync(join(tmpdir(), "agent-sudo-journal-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let n = 0;

function makeJournal(entries: number): string {
  const path = join(root, `j${n++}.log`);
  const j = openJournal(path);
  for (let i = 0; i < entries; i++) j.append({ op: "exec", request_id: `r${i}`, command: `echo ${i} ünïcode`, exit_code: i % 3 });
  j.close();
  return path;
}

describe("executor journal", () => {
  it("chains entries and verifies; reopening continues the chain", () => {
    const path = makeJournal(5);
    expect(verifyJournal(path)).toEqual({ ok: true, entries: 5 });
    const j = openJournal(path);
    j.append({ op: "undo" });
    j.close();
    expect(verifyJournal(path)).toEqual({ ok: true, entries: 6 });
    const lines = readFileSync(path, "utf8").trim().split("\n");
    const prevHash = lines[4]?.slice(0, 64);
    expect(JSON.parse(lines[5]?.slice(65) ?? "{}").prev).toBe(prevHash);
  });

  it("refuses to continue a journal whose last complete entry is damaged, naming the file, the offset and the command to inspect it", () => {
    for (const damage of [
      (line: string) => `${line.slice(0, 70)}{not json\n`,
      (line: string) => `${line.slice(0, 64)} ${line.slice(65).replace("exec", "EXEC")}\n`,
      () => "garbage without a hash\n",
    ]) {
      const path = makeJournal(3);
      const lines = readFileSync(path, "utf8").split("\n").filter(Boolean);
      const offset = Buffer.byteLength(
        lines
          .slice(0, 2)
          .map((l) => `${l}\n`)
          .join(""),
        "utf8",
      );
      writeFileSync(
        path,
        `${lines
          .slice(0, 2)
          .map((l) => `${l}\n`)
          .join("")}${damage(lines[2] ?? "")}`,
      );
      expect(() => openJournal(path)).toThrow(
        new RegExp(`journal ${path}: the last complete entry \\(at byte offset ${offset}\\).*agent-sudo audit verify-journal ${path}`),
      );
    }
  });

  it("names the entry when any single byte of it is changed", () => {
    const path = makeJournal(8);
    const original = readFileSync(path);
    const starts = [0];
    for (let i = 0; i < original.length; i++) if (original[i] === 0x0a) starts.push(i + 1);
    fc.assert(
      fc.property(fc.nat(original.length - 1), fc.integer({ min: 1, max: 255 }), (pos, delta) => {
        if (original[pos] === 0x0a) return;
        const copy = Buffer.from(original);
        copy[pos] = ((copy[pos] ?? 0) + delta) % 256;
        if (copy[pos] === 0x0a) copy[pos] = 0x41;
        if (copy[pos] === original[pos]) return;
        const tampered = join(root, `t${n++}.log`);
        writeFileSync(tampered, copy);
        const entry = starts.filter((s) => s <= pos).length; // 1-based line of `pos`
        const v = verifyJournal(tampered);
        expect(v.ok).toBe(false);
        if (!v.ok) expect(v.brokenAt).toBe(entry);
      }),
      { numRuns: 300 },
    );
  });

  it("a rewritten entry with a recomputed hash is caught at the next entry", () => {
    const path = makeJournal(4);
    const lines = readFileSync(path, "utf8").trim().split("\n");
    const body = JSON.parse(lines[1]?.slice(65) ?? "{}");
    body.entry.command = "rm -rf /";
    const json = JSON.stringify(body);
    lines[1] = `${createHash("sha256").update(json).digest("hex")} ${json}`;
    writeFileSync(path, lines.join("\n") + "\n");
    const v = verifyJournal(path);
    expect(v).toMatchObject({ ok: false, brokenAt: 3 });
    if (!v.ok) expect(v.reason).toMatch(/entry 2/);
  });

  it("a removed entry is caught where the gap is", () => {
    const path = makeJournal(5);
    const lines = readFileSync(path, "utf8").trim().split("\n");
    lines.splice(2, 1);
    writeFileSync(path, lines.join("\n") + "\n");
    expect(verifyJournal(path)).toMatchObject({ ok: false, brokenAt: 3 });
  });

  it("a torn last line is reported, then cut and journaled at the next open", () => {
    const path = makeJournal(3);
    appendFileSync(path, '0123abcd {"seq":4,"ts":"2026');
    expect(verifyJournal(path)).toMatchObject({ ok: false, brokenAt: 4 });
    const j = openJournal(path);
    j.append({ op: "exec" });
    j.close();
    expect(verifyJournal(path)).toEqual({ ok: true, entries: 5 });
    const cut = JSON.parse(readFileSync(path, "utf8").trim().split("\n")[3]?.slice(65) ?? "{}");
    expect(cut.entry).toMatchObject({ journal: "torn-tail-cut" });
  });
});

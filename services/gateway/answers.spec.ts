// The README's answer table and the gateway's vocabulary say the same: every
// (status, error word) the table names is in HTTP_ERRORS with that status,
// and every word of HTTP_ERRORS is in the table. And no gateway source
// builds an error body by hand (they all go through answer()).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../shared/config.js";
import { answer, HTTP_ERRORS } from "./answers.js";

function readmePairs(): Array<[number, string]> {
  const text = readFileSync(join(repoRoot, "README.md"), "utf8");
  const start = text.indexOf("| status | body |");
  const table = text.slice(start, text.indexOf("\n\n", start)).split("\n");
  return table.flatMap((row) => {
    const status = Number(/^\| (\d{3}) \|/.exec(row)?.[1]);
    return [...row.matchAll(/\{error:"([a-z_]+)"/g)].map((m) => [status, m[1] ?? ""] as [number, string]);
  });
}

describe("the gateway's HTTP vocabulary", () => {
  it("README's answer table names every word with its status, and nothing else", () => {
    const pairs = readmePairs();
    expect(pairs.length).toBeGreaterThan(10);
    for (const [status, word] of pairs)
      expect(HTTP_ERRORS[word as keyof typeof HTTP_ERRORS]?.status, `README: ${status} ${word}`).toBe(status);
    expect(new Set(pairs.map(([, w]) => w))).toEqual(new Set(Object.keys(HTTP_ERRORS)));
  });

  it("answer() takes its status from the table", () => {
    expect(answer("conflict", { details: "x" }, { "retry-after": "1" })).toEqual({
      status: 409,
      body: { error: "conflict", details: "x" },
      headers: { "retry-after": "1" },
    });
  });

  it("no gateway source spells an error body by hand", () => {
    const dir = import.meta.dirname;
    const offenders = (readdirSync(dir, { recursive: true }) as string[])
      .filter((f) => f.endsWith(".ts") && !f.endsWith(".spec.ts") && f !== "answers.ts")
      .filter((f) => /body:\s*\{\s*error:\s*"/.test(readFileSync(join(dir, f), "utf8")));
    expect(offenders).toEqual([]);
  });
});

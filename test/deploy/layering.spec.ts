// Layering is a test (Tailscale's deps_test): walked transitively from each
// service's entry file, the import graph may reach only what the rules
// below allow. A violation names the chain of imports that leads there.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../support/stack.js";
import { chain, reach } from "./layering.js";

const SERVICES: Record<string, { entry: string; own: string }> = {
  executor: { entry: "services/executor/main.ts", own: "services/executor/" },
  classifier: { entry: "services/classifier/main.ts", own: "services/classifier/" },
  concurrence: { entry: "services/concurrence/main.ts", own: "services/concurrence/" },
  sandbox: { entry: "services/sandbox/main.ts", own: "services/sandbox/" },
  breaker: { entry: "services/breaker/main.ts", own: "services/breaker/" },
  gateway: { entry: "services/gateway/main.ts", own: "services/gateway/" },
};

/** The executor's runtime packages: the smallest list of all (ARCHITECTURE: fewest dependencies). */
const EXECUTOR_PACKAGES = new Set(["@grpc/grpc-js", "@bufbuild/protobuf", "zod", "pino"]);

/** Repository-relative source files under `dir` (specs excluded). */
function sourcesUnder(root: string, dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    if (!existsSync(join(root, d))) return;
    for (const n of readdirSync(join(root, d))) {
      const p = `${d}/${n}`;
      if (statSync(join(root, p)).isDirectory()) walk(p);
      else if (n.endsWith(".ts") && !n.endsWith(".spec.ts")) out.push(p);
    }
  };
  walk(dir);
  return out;
}

/** Every rule broken under `root`: "service: what it reaches (the chain)". */
function violations(root: string, services = SERVICES): string[] {
  const out: string[] = [];
  for (const [name, s] of Object.entries(services)) {
    const r = reach(root, s.entry);
    for (const file of r.files) {
      // The classifier and the concurrence are independent judges, each in its own folder: neither reaches the other's.
      const allowed = file.startsWith(s.own) || file.startsWith("services/shared/") || file.startsWith("proto/gen/");
      if (!allowed) out.push(`${name} reaches ${file}: ${chain(r, file)}`);
      if (file.startsWith("cli/")) out.push(`${name} reaches the CLI: ${chain(r, file)}`);
    }
    if (name === "executor") {
      for (const [pkg, by] of r.packages)
        if (!pkg.startsWith("node:") && !EXECUTOR_PACKAGES.has(pkg))
          out.push(`executor reaches package ${pkg} (imported by ${by}): ${chain(r, by)}`);
    }
  }
  // The sandbox's two halves: the unprivileged gRPC service loads none of the root launcher's code (launcher/), only its types.
  if (services.sandbox) {
    const unprivileged = reach(root, services.sandbox.entry, true);
    for (const f of unprivileged.files)
      if (f.startsWith(`${services.sandbox.own}launcher/`))
        out.push(`the sandbox service loads its root half's ${f}: ${chain(unprivileged, f)}`);
  }
  // services/shared is below every service: from any of its files (reached by a service or not), no service's folder.
  for (const file of sourcesUnder(root, "services/shared")) {
    const below = reach(root, file);
    for (const f of below.files) {
      const svc = Object.entries(services).find(([, o]) => f.startsWith(o.own));
      if (svc || f.startsWith("cli/")) out.push(`services/shared reaches ${svc ? svc[0] : "the CLI"} (${f}): ${chain(below, f)}`);
    }
  }
  return [...new Set(out)];
}

describe("layering (imports walked transitively from each service's entry file)", () => {
  it("each service reaches only its own folder, services/shared and proto/gen; none reaches cli/; the executor only its few packages; shared reaches no service; the sandbox service loads nothing of its root launcher", () => {
    expect(violations(repoRoot)).toEqual([]);
  });

  it("a forbidden import is found, with its chain (a fixture tree)", () => {
    const dir = mkdtempSync(join(tmpdir(), "agent-sudo-layering-"));
    try {
      const put = (path: string, text: string) => {
        mkdirSync(dirname(join(dir, path)), { recursive: true });
        writeFileSync(join(dir, path), text);
      };
      put("services/executor/main.ts", 'import { a } from "./run.js";\nimport "node:fs";\n');
      put("services/executor/run.ts", 'export { b as a } from "../shared/util.js";\nimport "zod";\n');
      put("services/shared/util.ts", 'export const b = 1;\nconst later = () => import("../classifier/engine.js");\n');
      put("services/classifier/engine.ts", 'import { x } from "../../cli/helper.js";\nimport "picomatch";\n');
      put("cli/helper.ts", "export const x = 1;\n");
      const got = violations(dir, {
        executor: { entry: "services/executor/main.ts", own: "services/executor/" },
        classifier: { entry: "services/classifier/engine.ts", own: "services/classifier/" },
      });
      expect(got).toContain(
        "executor reaches services/classifier/engine.ts: services/executor/main.ts → services/executor/run.ts → services/shared/util.ts → services/classifier/engine.ts",
      );
      expect(got).toContain(
        "executor reaches the CLI: services/executor/main.ts → services/executor/run.ts → services/shared/util.ts → services/classifier/engine.ts → cli/helper.ts",
      );
      expect(got.some((v) => v.startsWith("executor reaches package picomatch"))).toBe(true);
      expect(got.some((v) => v.startsWith("services/shared reaches classifier"))).toBe(true);
      expect(got.some((v) => v.includes("zod"))).toBe(false);
      // The sandbox's unprivileged half may name the launcher's types, never load its code.
      put("services/sandbox/main.ts", 'import type { Run } from "./launcher/overlay.js";\nimport { t } from "./trial.js";\n');
      put("services/sandbox/trial.ts", 'export { mount } from "./launcher/overlay.js";\n');
      put("services/sandbox/launcher/overlay.ts", "export const mount = 1;\n");
      const sandboxOnly = () =>
        violations(dir, { sandbox: { entry: "services/sandbox/main.ts", own: "services/sandbox/" } }).filter((v) =>
          v.startsWith("the sandbox service"),
        );
      expect(sandboxOnly()).toEqual([
        "the sandbox service loads its root half's services/sandbox/launcher/overlay.ts: services/sandbox/main.ts → services/sandbox/trial.ts → services/sandbox/launcher/overlay.ts",
      ]);
      put("services/sandbox/trial.ts", 'export type { Run } from "./launcher/overlay.js";\n');
      expect(sandboxOnly()).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

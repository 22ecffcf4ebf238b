// The proposals store: dedup by shape, rejected shapes remembered, atomic
// writes under a lock (real concurrent writer processes), never a policy file.
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { propose } from "../../services/classifier/propose.js";
import {
  markActivated,
  PENDING_FILE,
  ProposalError,
  type ProposalInput,
  proposalId,
  readPending,
  rejectProposal,
} from "../../services/shared/proposals.js";
import { loadConfig } from "../../services/shared/config.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "proposals-"));
  writeFileSync(join(dir, "SUDO.md"), "# untouched\n");
  writeFileSync(join(dir, "CLAUDE_CMDS.md"), "# untouched\n");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function input(pattern: string, over: Partial<ProposalInput> = {}): ProposalInput {
  return {
    source: "learned",
    policy: "sudo",
    pattern,
    example: pattern,
    command: pattern,
    cwd: "/srv",
    suggested_tier: 2,
    evidence: { clean_runs: 5, request_ids: ["r1", "r2"], hosts: ["server-01"], tiers_seen: [2] },
    ...over,
  };
}

describe("proposals store", () => {
  it("one proposal per shape; evidence merges, the suggestion is never lowered", () => {
    const a = propose(dir, input("acme-report --since [0-9]+([0-9])"));
    expect(a.status).toBe("added");
    const b = propose(
      dir,
      input("acme-report --since [0-9]+([0-9])", {
        source: "sandbox",
        suggested_tier: 1,
        evidence: {
          clean_runs: 7,
          request_ids: ["r9"],
          trial: { request_id: "r9", ok: true, exit_code: 0, touched_paths: ["/var/lib/acme/x"], findings: [], gaps: [] },
        },
      }),
    );
    expect(b.status).toBe("updated");
    const file = readPending(dir);
    expect(file.proposals).toHaveLength(1);
    const p = file.proposals[0]!;
    expect(p.id).toBe(proposalId("sudo", "acme-report --since [0-9]+([0-9])"));
    expect(p.suggested_tier).toBe(2);
    expect(p.evidence).toMatchObject({ clean_runs: 12, request_ids: ["r9", "r1", "r2"], trial: { ok: true } });
    // Learned evidence is a recount from the audit: the larger count stands.
    propose(dir, input("acme-report --since [0-9]+([0-9])", { evidence: { clean_runs: 9, request_ids: ["r10"] } }));
    expect(readPending(dir).proposals[0]?.evidence.clean_runs).toBe(12);
    // Same pattern for the other policy file is another shape.
    expect(propose(dir, input("acme-report --since [0-9]+([0-9])", { policy: "claude" })).status).toBe("added");
    expect(readPending(dir).proposals).toHaveLength(2);
  });

  it("a rejected shape is remembered with reason, by and when, and never proposed again", () => {
    const { proposal } = propose(dir, input("acme-export --fmt csv")) as { proposal: { id: string } };
    const r = rejectProposal(dir, proposal.id, { reason: "exports customer data", by: "alice" }, new Date("2026-02-01T00:00:00Z"));
    expect(r).toMatchObject({
      reason: "exports customer data",
      by: "alice",
      at: "2026-02-01T00:00:00.000Z",
      pattern: "acme-export --fmt csv",
    });
    const again = propose(dir, input("acme-export --fmt csv", { evidence: { clean_runs: 50, request_ids: ["x"] } }));
    expect(again).toMatchObject({ status: "rejected", rejection: { by: "alice" } });
    expect(readPending(dir).proposals).toHaveLength(0);
    expect(() => rejectProposal(dir, proposal.id, { reason: "twice", by: "alice" })).toThrow(ProposalError);
  });

  it("an activated shape is not proposed again either", () => {
    const { proposal } = propose(dir, input("acme-sync --check")) as { proposal: { id: string } };
    markActivated(dir, proposal.id, { ruleId: "learned-acme-sync-abcdef", file: "SUDO.md", tier: 2, by: "alice" });
    expect(propose(dir, input("acme-sync --check")).status).toBe("activated");
  });

  it("refuses catch-alls and crossing wildcards whoever proposes them", () => {
    for (const p of ["*", "sudo *", "rm *", "cat /var/log/*"]) expect(() => propose(dir, input(p))).toThrow(/refused/);
    expect(existsSync(join(dir, PENDING_FILE))).toBe(false);
  });

  it("writes only its own file, leaves no temp or lock files, refuses a malformed store", () => {
    propose(dir, input("acme-sync --check"));
    expect(readdirSync(dir).sort()).toEqual(["CLAUDE_CMDS.md", "SUDO.md", PENDING_FILE].sort());
    expect(readFileSync(join(dir, "SUDO.md"), "utf8")).toBe("# untouched\n");
    writeFileSync(join(dir, PENDING_FILE), '{"version":1,"proposals":[{"id":"x"}],"rejected":[],"activated":[]}');
    expect(() => readPending(dir)).toThrow(ProposalError);
    expect(() => propose(dir, input("acme-other"))).toThrow(ProposalError);
  });

  it("concurrent writer processes lose nothing", async () => {
    const mod = resolve("dist/services/classifier/propose.js");
    if (!existsSync(mod)) throw new Error("build first: npx tsc -p tsconfig.json");
    const script = (w: number) => `
      const m = await import(${JSON.stringify(mod)});
      for (let i = 0; i < 15; i++) m.propose(${JSON.stringify(dir)}, { source: "learned", policy: "sudo", pattern: "acme-w${w} job" + i, example: "x", command: "x", cwd: "",
        suggested_tier: 1, evidence: { clean_runs: 5, request_ids: ["r"] } });`;
    const run = promisify(execFile);
    await Promise.all([0, 1, 2, 3].map((w) => run(process.execPath, ["--input-type=module", "-e", script(w)])));
    const file = readPending(dir);
    expect(file.proposals).toHaveLength(60);
    expect(readdirSync(dir).filter((f) => f.includes(".tmp-") || f.endsWith(".lock"))).toEqual([]);
  });
});

describe("where the store lives (config's proposals_dir)", () => {
  const withConfig = (body: Record<string, unknown>) => {
    writeFileSync(join(dir, "config.json"), JSON.stringify(body));
    return loadConfig(dir);
  };

  it("unset: beside configured policies, else under the state dir; relative: under the home; absolute: as given", () => {
    const beside = withConfig({ policies_dir: join(dir, "pol") });
    expect(beside.proposalsDir).toBe(join(dir, "pol"));
    // The package's own policies (npm start from a checkout): never into the code.
    expect(withConfig({}).proposalsDir).toBe(join(dir, "state", "proposals"));
    expect(withConfig({ policies_dir: join(dir, "pol"), proposals_dir: "state/proposals" }).proposalsDir).toBe(
      join(dir, "state/proposals"),
    );
    expect(withConfig({ proposals_dir: "/srv/elsewhere" }).proposalsDir).toBe("/srv/elsewhere");
    expect(() => withConfig({ proposals_dir: "" })).toThrow(/proposals_dir/);
  });
});

// Where an activated rule lands in the policy text, and the diff shown.
import { describe, expect, it } from "vitest";
import { parsePolicy } from "../../services/classifier/engine/policy.js";
import { ACTIVATED_HEADING, placeRule, renderRow, ruleIdFor, unifiedDiff, type NewRule } from "../../cli/rule-placement.js";

const SUDO = `# SUDO.md

## Rules: services

| id | patterns | tier | class | hosts | state | rationale |
|---|---|---|---|---|---|---|
| systemctl-status | \`systemctl status *\` | 0 | read | | active | service health |
| systemctl-other | \`systemctl *\` | 3 | live-service | primary=4 | active | any other form |

## Danger veto

- \`disk-wipe\`: \`\\bmkfs\\b\` — formats a filesystem
`;

const rule = (id: string, pattern: string): NewRule => ({
  id,
  pattern,
  tier: 1,
  verbClass: "workspace-write",
  rationale: "Learned: 5 clean runs | with a pipe",
});

describe("placeRule", () => {
  it("goes before the first broader rule that would shadow it (the catch-all)", () => {
    const p = placeRule(SUDO, "SUDO.md", rule("learned-systemctl-aaaaaa", "systemctl frobnicate web"), ["systemctl frobnicate web"]);
    expect(p.before).toBe("systemctl-other");
    const rules = parsePolicy(p.text, "SUDO.md").rules.map((r) => r.id);
    expect(rules).toEqual(["systemctl-status", "learned-systemctl-aaaaaa", "systemctl-other"]);
    expect(p.text.split("\n")[p.line - 1]).toBe(
      renderRow(rule("learned-systemctl-aaaaaa", "systemctl frobnicate web")).replace(" | with", "  with"),
    );
  });

  it("with no matching rule, opens the activated-proposals section before the danger veto, then appends to it", () => {
    const a = placeRule(SUDO, "SUDO.md", rule("learned-acme-aaaaaa", "acme-report --since [0-9]+([0-9])"), [
      "acme-report --since 20240101",
    ]);
    expect(a.before).toBeNull();
    expect(a.text.indexOf(ACTIVATED_HEADING)).toBeLessThan(a.text.indexOf("## Danger veto"));
    const b = placeRule(a.text, "SUDO.md", rule("learned-acme-bbbbbb", "acme-sync --check"), ["acme-sync --check"]);
    const parsed = parsePolicy(b.text, "SUDO.md");
    expect(parsed.rules.map((r) => r.id)).toEqual(["systemctl-status", "systemctl-other", "learned-acme-aaaaaa", "learned-acme-bbbbbb"]);
    expect(parsed.vetoes.map((v) => v.id)).toEqual(["disk-wipe"]);
    expect(b.text.split(ACTIVATED_HEADING).length).toBe(2);
    // The pipe in the rationale was neutralised, so the row still has seven cells.
    expect(parsed.rules[2]?.rationale).toBe("Learned: 5 clean runs with a pipe");
  });

  it("unifiedDiff shows the inserted lines with context", () => {
    const p = placeRule(SUDO, "SUDO.md", rule("learned-systemctl-aaaaaa", "systemctl frobnicate web"), ["systemctl frobnicate web"]);
    const d = unifiedDiff(SUDO, p.text, "SUDO.md");
    expect(d[0]).toBe("--- a/SUDO.md");
    expect(d.filter((l) => l.startsWith("+") && !l.startsWith("+++"))).toEqual([`+${p.text.split("\n")[p.line - 1]}`]);
    expect(d.filter((l) => l.startsWith("-") && !l.startsWith("---"))).toEqual([]);
    expect(unifiedDiff(SUDO, SUDO, "SUDO.md")).toEqual([]);
  });

  it("rule ids are valid policy ids", () => {
    expect(ruleIdFor({ id: "p-0123456789ab", source: "learned", example: "/opt/Acme_Tool/run x" })).toBe("learned-run-012345");
    expect(ruleIdFor({ id: "p-0123456789ab", source: "sandbox", example: "Acme_Tool x" })).toBe("trialled-acme-tool-012345");
  });
});

import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadEngine } from "./index.js";
import { checkUnique, parsePolicy, splitRow } from "./policy.js";

const HEAD = "## Rules: x\n\n| id | patterns | tier | class | hosts | state | rationale |\n|---|---|---|---|---|---|---|\n";
const realDir = join(import.meta.dirname, "..", "..", "..", "policies");

describe("policy format", () => {
  it("reads rules, host overrides, extglob bars and vetoes", () => {
    const p = parsePolicy(
      `${HEAD}| a-rule | \`git @(status|log) *\`, \`tig\` | 0 | read | primary=1 server-01=0 | active | Reads. |\n\n## Danger veto\n\n- \`v-1\`: \`^rm\\s\` — Deletes.\n`,
      "T.md",
    );
    expect(p.rules).toHaveLength(1);
    expect(p.rules[0]?.patterns).toEqual(["git @(status|log) *", "tig"]);
    expect(p.rules[0]?.hosts).toEqual({ primary: 1, "server-01": 0 });
    expect(p.vetoes[0]?.regex.test("rm x")).toBe(true);
  });

  it.each([
    ["bad tier", `${HEAD}| a | \`x\` | 5 | read | | active | Reads. |\n`, 5],
    ["bad class", `${HEAD}| a | \`x\` | 0 | reads | | active | Reads. |\n`, 5],
    ["bad state", `${HEAD}| a | \`x\` | 0 | read | | on | Reads. |\n`, 5],
    ["no rationale", `${HEAD}| a | \`x\` | 0 | read | | active | |\n`, 5],
    ["bare pattern", `${HEAD}| a | x | 0 | read | | active | Reads. |\n`, 5],
    ["bad host", `${HEAD}| a | \`x\` | 0 | read | laptop=1 | active | Reads. |\n`, 5],
    ["bad header", "## Rules\n\n| id | pattern | tier |\n", 3],
    ["bad veto", "## Danger veto\n\n- `v`: `(` — Broken.\n", 3],
    ["unterminated span", `${HEAD}| a | \`x | 0 | read | | active | Reads. |\n`, 5],
  ])("refuses %s with file and line", (_name, text, line) => {
    expect(() => parsePolicy(text, "P.md")).toThrow(new RegExp(`^P\\.md:${line}: `));
  });

  describe("attrs column", () => {
    const HEAD8 =
      "## Rules: x\n\n| id | patterns | tier | class | hosts | state | attrs | rationale |\n|---|---|---|---|---|---|---|---|\n";
    const row = (attrs: string) => `${HEAD8}| a | \`x *\` | 3 | live-service | | active | ${attrs} | Why. |\n`;

    it("reads network, verify and redeploy; a 7-column table has none", () => {
      const p = parsePolicy(
        row("network, verify=`systemctl is-active x | grep -q active` redeploy=`https://ci.example/job/x?token=no`"),
        "T.md",
      );
      expect(p.rules[0]?.attrs).toEqual({
        network: true,
        verify: "systemctl is-active x | grep -q active",
        redeploy: "https://ci.example/job/x?token=no",
      });
      expect(p.rules[0]?.rationale).toBe("Why.");
      expect(parsePolicy(row("-"), "T.md").rules[0]?.attrs).toEqual({ network: false });
      expect(parsePolicy(row(""), "T.md").rules[0]?.attrs).toEqual({ network: false });
      expect(parsePolicy(`${HEAD}| a | \`x\` | 0 | read | | active | Reads. |\n`, "T.md").rules[0]?.attrs).toEqual({ network: false });
    });

    it.each([
      ["an unknown attribute", "sudo"],
      ["network with a value", "network=`yes`"],
      ["verify without a value", "verify"],
      ["an attribute twice", "network network"],
      ["a redeploy that is not a URL", "redeploy=`not a url`"],
      ["a redeploy that is not http", "redeploy=`file:///etc/passwd`"],
      ["a redeploy with credentials", "redeploy=`https://u:p@ci.example/x`"],
      ["a redeploy over http to another host", "redeploy=`http://ci.example/job/x`"],
    ])("refuses %s with file and line", (_name, attrs) => {
      expect(() => parsePolicy(row(attrs), "P.md")).toThrow(/^P\.md:5: /);
    });

    it("refuses a row whose width is not the header's", () => {
      expect(() => parsePolicy(`${HEAD8}| a | \`x\` | 0 | read | | active | Reads. |\n`, "P.md")).toThrow(/^P\.md:5: expected 8 cells/);
    });
  });

  it("ignores prose and fenced examples", () => {
    const p = parsePolicy("# T\n\nSome prose | with a bar\n\n```\n| not | a | rule |\n```\n", "T.md");
    expect(p.rules).toHaveLength(0);
  });

  it("splits cells outside backticks only", () => {
    expect(splitRow("| a | `b|c` | d |")).toEqual(["a", "`b|c`", "d"]);
  });

  it("rejects duplicate ids across files", () => {
    const a = parsePolicy(`${HEAD}| same | \`x\` | 0 | read | | active | Reads. |\n`, "A.md");
    const b = parsePolicy(`${HEAD}| same | \`y\` | 0 | read | | active | Reads. |\n`, "B.md");
    expect(() => checkUnique([a, b])).toThrow(/B\.md:5: duplicate id "same"/);
  });

  it("the shipped policies hold at least 300 rules", () => {
    const n = ["SUDO.md", "CLAUDE_CMDS.md"].map((f) => parsePolicy(readFileSync(join(realDir, f), "utf8"), f).rules.length);
    expect(n[0]! + n[1]!).toBeGreaterThanOrEqual(300);
  });
});

describe("loading", () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  function copy(): string {
    const dir = mkdtempSync(join(tmpdir(), "agent-sudo-pol-"));
    dirs.push(dir);
    cpSync(realDir, dir, { recursive: true });
    return dir;
  }

  it("refuses to load a broken file, naming file and line", async () => {
    const dir = copy();
    const file = join(dir, "SUDO.md");
    writeFileSync(file, readFileSync(file, "utf8").replace("| sudo-noop |", "| Sudo Noop |"));
    await expect(loadEngine(dir)).rejects.toThrow(/SUDO\.md:\d+: .*id must be/);
  });

  it("never lets a proposed rule decide", async () => {
    const dir = copy();
    const file = join(dir, "CLAUDE_CMDS.md");
    writeFileSync(
      file,
      readFileSync(file, "utf8").replace(
        "## Rules: inspection of the system",
        `## Rules: proposed\n\n| id | patterns | tier | class | hosts | state | rationale |\n|---|---|---|---|---|---|---|\n| try-frob | \`frobnicate *\` | 0 | read | | proposed | Learned. |\n\n## Rules: inspection of the system`,
      ),
    );
    const e = await loadEngine(dir);
    const v = e.classify({ command: "frobnicate now", cwd: "/w", host: "primary", source: "claude" });
    expect(v.tier).toBe(4);
    expect(v.reason).toMatch(/proposed rule try-frob/);
  });
});

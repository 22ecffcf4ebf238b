// Rule shapes: conservative generalisation, never a catch-all, and every
// shape matches the command it came from under the engine's own matcher.
import { describe, expect, it } from "vitest";
import { compileRules, firstMatch } from "../../services/classifier/engine/match.js";
import type { Rule } from "../../services/classifier/engine/policy.js";
import { checkShape, ruleShape, shapeWord } from "../../services/classifier/rule-shape.js";

function matches(pattern: string, text: string): boolean {
  const rule: Rule = {
    id: "t",
    patterns: [pattern],
    tier: 0,
    verbClass: "read",
    hosts: {},
    state: "active",
    rationale: "test",
    file: "t",
    line: 1,
  };
  return firstMatch(compileRules([rule]), text, "primary").hit !== null;
}

async function shape(command: string, source: "sudo" | "claude" = "sudo", cwd = "/srv") {
  return ruleShape({ command, source, cwd });
}

describe("ruleShape", () => {
  it("keeps program, subcommand, flags and names literal", async () => {
    const s = await shape("systemctl status nginx");
    expect(s).toMatchObject({ ok: true, pattern: "systemctl status nginx", policy: "sudo", program: "systemctl" });
  });

  it("generalises digit runs, hex ids, UUIDs and mktemp names into classes that cannot cross spaces or slashes", async () => {
    const cases: [string, string][] = [
      ["acme-report --since 20240101", "acme-report --since [0-9]+([0-9])"],
      ["kill -HUP 4242", "kill -HUP [0-9]+([0-9])"],
      ["docker logs 3f2a9c1b77e0", "docker logs +([0-9a-f])"],
      ["git show 1a2b3c4d", "git show +([0-9a-f])"],
      ["acme-job cancel 1b4e28ba-2fa1-11d2-883f-0016d3cca427", "acme-job cancel +([0-9a-fA-F-])"],
      ["cat /tmp/tmp.Xa81bQz9/out.log", "cat /tmp/tmp.+([A-Za-z0-9])/out.log"],
      ["tar -tzf /srv/backup/db-2024-05-01.tar.gz", "tar -tzf /srv/backup/db-[0-9]+([0-9])-[0-9]+([0-9])-[0-9]+([0-9]).tar.gz"],
      ["head -n 5 facade.txt", "head -n 5 facade.txt"],
    ];
    for (const [command, pattern] of cases) {
      const s = await shape(command);
      expect(s, command).toMatchObject({ ok: true, pattern });
      if (s.ok) expect(matches(s.pattern, s.example), command).toBe(true);
    }
    const s = await shape("acme-report --since 20240101");
    if (!s.ok) throw new Error("no shape");
    expect(matches(s.pattern, "acme-report --since 20250315")).toBe(true);
    expect(matches(s.pattern, "acme-report --since 2")).toBe(false);
    expect(matches(s.pattern, "acme-report --since 20240101 --purge")).toBe(false);
    expect(matches(s.pattern, "acme-report --since 2024 /etc/shadow")).toBe(false);
  });

  it("escapes glob characters in literal words, and normalises the program like the engine", async () => {
    const s = await shape("/usr/bin/grep -E 'a|b(c)*' notes.txt");
    expect(s).toMatchObject({ ok: true, pattern: "grep -E a\\|b\\(c\\)\\* notes.txt", example: "grep -E a|b(c)* notes.txt" });
    if (s.ok) {
      expect(matches(s.pattern, s.example)).toBe(true);
      expect(matches(s.pattern, "grep -E abc notes.txt")).toBe(false);
    }
  });

  it("strips a bare sudo: the command is then judged by SUDO.md", async () => {
    expect(await shape("sudo acme-report --since 20240101", "claude")).toMatchObject({
      ok: true,
      policy: "sudo",
      pattern: "acme-report --since [0-9]+([0-9])",
    });
  });

  it("refuses what it cannot shape faithfully", async () => {
    const refused = [
      "acme-report && rm -rf /tmp/x", // compound
      "acme-report > /etc/motd", // redirection
      "acme-report $HOME", // expansion
      "ls *.log", // unquoted glob
      "FOO=1 acme-report", // assignment
      "./deploy.sh", // a script at a path
      "env FOO=1 acme-report", // judged through
      "bash -c 'acme-report'",
      "sudo -u postgres psql",
      "xargs rm",
      "echo 'unterminated",
    ];
    for (const command of refused) expect((await shape(command)).ok, command).toBe(false);
  });
});

describe("checkShape", () => {
  it("never lets a catch-all or a crossing wildcard through", () => {
    for (const p of [
      "*",
      "sudo *",
      "rm *",
      "rm -rf /tmp/*",
      "cat /var/log/?",
      "*([a-z]) --help",
      "systemctl restart @(a|b)",
      "acme [abc]",
      "x{a,b}",
      "",
      " acme",
      "acme  x",
      "a`b`",
    ]) {
      expect(checkShape(p), p).not.toBeNull();
    }
    for (const p of ["sudo acme", "env acme", "bash -c acme", "timeout 5 acme", "find . -exec rm {} \\;"])
      expect(checkShape(p), p).not.toBeNull();
  });

  it("accepts literal words, escapes and the four classes", () => {
    for (const p of [
      "systemctl status nginx",
      "kill -HUP [0-9]+([0-9])",
      "docker logs +([0-9a-f])",
      "grep -E a\\|b notes.txt",
      "g\\+\\+ --version",
      "cat /tmp/tmp.+([A-Za-z0-9])/x",
    ]) {
      expect(checkShape(p), p).toBeNull();
    }
  });

  it("shapeWord leaves single digits and plain words alone", () => {
    expect(shapeWord("-n")).toBe("-n");
    expect(shapeWord("5")).toBe("5");
    expect(shapeWord("deadbeef")).toBe("deadbeef");
    expect(shapeWord("v12")).toBe("v12");
  });
});

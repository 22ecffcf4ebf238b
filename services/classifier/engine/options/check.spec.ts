// The option notation and the way words are read against it (getopt_long
// semantics), and the coverage of the real tables: every open tier 0–1
// pattern of both policies has its tool's table.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { openPattern } from "../match.js";
import { parsePolicy } from "../policy.js";
import type { Word } from "../types.js";
import { checkOptions } from "./check.js";
import { TOOLS } from "./index.js";
import { defineTools, parseSpec } from "./spec.js";
import { dynamicWord as dyn, literalWord as lit } from "../unwrap.js";

const glob = (text: string): Word => ({ ...lit(text), glob: true });
const words = (line: string): Word[] => line.split(" ").filter(Boolean).map(lit);

const table = defineTools({
  tool: "-a -b -n= -o=> -f=< -i=? --all --name= --out=> --color=? #",
  inert: "-a @inert",
  git: "@sub -C= --no-pager",
  "git log": "-p --oneline -n=",
  npm: "@scripts --silent",
  "npm ls": "--json",
  tar: "-c -x -t -v -f= -z @oldstyle",
  ps: "-e -f -o= @bsd=aux",
  vim: "-R @pluscmd",
  nm: "-C @atfile",
  echo: "@data",
  env: "-i @posix",
});
const none = () => null;
const check = (program: string, args: Word[], expand: (w: Word) => readonly string[] | null = none) =>
  checkOptions(table, program, args, expand);
const unknown = (program: string, line: string) => check(program, words(line)).unknown?.word ?? null;

describe("option notation", () => {
  it("parses flags, values, file kinds and markers", () => {
    const s = parseSpec("x", "-a -n= -o=> -f=< -i=? --long --v= -name= # @inert @sub");
    expect(s.short.get("a")).toEqual({ value: "none", kind: "data" });
    expect(s.short.get("o")).toEqual({ value: "required", kind: "write" });
    expect(s.short.get("f")).toEqual({ value: "required", kind: "read" });
    expect(s.short.get("i")?.value).toBe("optional");
    expect(s.single.get("-name")?.value).toBe("required");
    expect([s.numeric, s.inert, s.sub]).toEqual([true, true, true]);
    expect(() => parseSpec("x", "-a=x")).toThrow(/bad token/);
    expect(() => parseSpec("x", "@bogus")).toThrow(/bad token/);
    expect(() => defineTools({ a: "-x" }, { a: "-y" })).toThrow(/twice/);
    expect(() => defineTools({ a: "@also=b" })).toThrow(/not defined/);
  });

  it("names several tables with one key", () => {
    const t = defineTools({ "ip a|addr": "-x", "docker ps|docker images": "-q" });
    expect([...t.keys()].sort()).toEqual(["docker images", "docker ps", "ip a", "ip addr"]);
  });
});

describe("reading words against a table", () => {
  it("accepts known options, bundles, glued and separate values, numbers", () => {
    for (const line of [
      "-a -b x",
      "-ab x",
      "-n5 x",
      "-n 5 x",
      "-abn 5 x",
      "--all --name=x --name y",
      "--color --color=always",
      "-20 x",
      "x -a",
    ]) {
      expect(unknown("tool", line), line).toBeNull();
    }
  });

  it("refuses unknown options, getopt abbreviations and values on flags", () => {
    expect(unknown("tool", "-z")).toBe("-z");
    expect(unknown("tool", "-az")).toBe("-az");
    expect(unknown("tool", "--al")).toBe("--al");
    expect(unknown("tool", "--compress-program=sh")).toBe("--compress-program=sh");
    expect(unknown("tool", "--all=1")).toBe("--all=1");
    expect(unknown("tool", "x -q")).toBe("-q");
  });

  it("stops at --, and reads a value that looks like an option as the value", () => {
    expect(unknown("tool", "-- -z --evil")).toBeNull();
    expect(unknown("tool", "-n -z")).toBeNull();
    expect(unknown("tool", "--name --evil")).toBeNull();
  });

  it("a tool without a table takes no options at all", () => {
    expect(unknown("frobnicate", "x y")).toBeNull();
    expect(unknown("frobnicate", "-v")).toBe("-v");
  });

  it("returns the files option values read and write", () => {
    const v = check("tool", words("-o out.txt -f in.txt --out=/etc/x -ffile"));
    expect(v.writes.map((w) => w.text)).toEqual(["out.txt", "/etc/x"]);
    expect(v.reads.map((w) => w.text)).toEqual(["in.txt", "file"]);
  });

  it("a computed word may be any option, unless the tool is inert or the word cannot start with a dash", () => {
    expect(check("tool", [dyn("$X")]).unknown?.word).toBe("$X");
    expect(check("tool", [dyn("$(echo -z)")]).unknown).not.toBeNull();
    expect(check("tool", [dyn("--$X")]).unknown).not.toBeNull();
    expect(check("tool", [dyn("src/$X")]).unknown).toBeNull();
    expect(check("tool", [{ ...dyn("$f"), noDash: true }]).unknown).toBeNull();
    expect(check("inert", [dyn("$X")]).unknown).toBeNull();
  });

  it("a glob is an option when it matches a name with a dash, or when that cannot be known", () => {
    expect(check("tool", [glob("*")], () => ["a", "-z"]).unknown?.word).toBe("*");
    expect(check("tool", [glob("*")], () => ["a", "b"]).unknown).toBeNull();
    expect(check("tool", [glob("*")], () => null).unknown).not.toBeNull();
    expect(check("tool", [glob("src/*")], () => null).unknown).toBeNull();
    expect(check("tool", [glob("{-z,a}")], () => ["-z", "a"]).unknown).not.toBeNull();
  });

  it("selects subcommands: global options before, the subcommand's after", () => {
    expect(unknown("git", "-C dir log -p -n 3")).toBeNull();
    expect(unknown("git", "--no-pager log --oneline")).toBeNull();
    expect(unknown("git", "log --ext-diff")).toBe("--ext-diff");
    expect(unknown("git", "frob")).toBe("frob");
    expect(check("git", [dyn("$SUB")]).unknown).not.toBeNull();
  });

  it("@scripts: a known subcommand is checked, a script's arguments are not", () => {
    expect(unknown("npm", "ls --json")).toBeNull();
    expect(unknown("npm", "ls --evil")).toBe("--evil");
    expect(unknown("npm", "--silent build --watch")).toBeNull();
    expect(unknown("npm", "--evil build")).toBe("--evil");
  });

  it("@oldstyle, @bsd, @pluscmd, @atfile, @data, @posix", () => {
    expect(unknown("tar", "czf x.tgz src")).toBeNull();
    expect(unknown("tar", "cIf prog x.tgz")).toBe("-I");
    expect(unknown("ps", "aux")).toBeNull();
    expect(unknown("ps", "auxe")).toBe("auxe");
    expect(unknown("vim", "+10 f")).toBeNull();
    expect(unknown("vim", "+!sh f")).toBe("+!sh");
    expect(unknown("nm", "@opts x")).toBe("@opts");
    expect(unknown("echo", "--anything -z")).toBeNull();
    expect(unknown("env", "-i x -z")).toBeNull();
    expect(unknown("env", "-z x")).toBe("-z");
  });
});

describe("the real tables", () => {
  it("cover every open tier 0–1 pattern of both policies", () => {
    const missing: string[] = [];
    for (const file of ["SUDO.md", "CLAUDE_CMDS.md"]) {
      const policy = parsePolicy(readFileSync(join(import.meta.dirname, "..", "..", "..", "..", "policies", file), "utf8"), file);
      for (const r of policy.rules) {
        if (r.state !== "active" || Math.min(r.tier, ...Object.values(r.hosts)) > 1) continue;
        for (const p of r.patterns.filter(openPattern)) {
          const verb = p.split(" ")[0] ?? "";
          if (/[*?()[\]@]/.test(verb)) continue;
          if (![...TOOLS.keys()].some((k) => k === verb || k.startsWith(`${verb} `))) missing.push(`${r.id}: ${verb}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it("keep the options that run programs or write files out", () => {
    const bad: [string, string][] = [
      ["sort", "--compress-program=sh f"],
      ["tar", "-tf x --to-command=sh"],
      ["tar", "-tf x -I sh"],
      ["rg", "--pre sh x"],
      ["wget", "-e use_askpass=/x u"],
      ["curl", "-K cfg"],
      ["git", "log --ext-diff"],
      ["git", "clone -c core.fsmonitor=x u"],
      ["npm", "ls --script-shell=/x"],
      ["journalctl", "--vacuum-size=1"],
      ["smartctl", "-s off /dev/sda"],
      ["blkid", "-c /etc/x"],
      ["lshw", "-dump /tmp/x"],
      ["crontab", "-l -r"],
      ["timeshift", "--list --delete-all"],
      ["needrestart", "-b -r a"],
      ["compgen", "-C cmd x"],
      ["complete", "-C cmd git"],
      ["jobs", "-x cmd"],
      ["history", "-w /tmp/x"],
      ["mapfile", "-C cb -c 1"],
      ["kubectl", "get pods --kubeconfig=/tmp/k"],
      ["docker", "--config /tmp/d ps"],
      ["man", "-P cat ls"],
      ["less", "-k /tmp/keys f"],
      ["diff3", "--diff-program=sh a b c"],
      ["zip", "-TT sh a.zip f"],
      ["gcc", "-wrapper sh,-c x.c"],
      ["gcc", "-fplugin=/x.so x.c"],
      ["node", "--require /tmp/x.js"],
      ["yt-dlp", "--exec sh u"],
      ["aria2c", "--on-download-complete=sh u"],
      ["nmcli", "c show -s"],
      ["vim", "-c !sh f"],
      ["ps", "e"],
      ["iptables-save", "-M /tmp/modprobe"],
      ["ip", "-batch /tmp/cmds"],
      ["openssl", "x509 -engine e"],
    ];
    const allowed = bad.filter(([p, line]) => checkOptions(TOOLS, p, words(line), none).unknown === null);
    expect(allowed).toEqual([]);
  });
});

// What the hook's classifier cannot look at, it does not guess about. The
// classifier service runs as its own unprivileged user: in a 0700 home it
// cannot lstat the workspace's files, so a link there to a key looks like
// any file. A hook read of such a path is tier 2 ("cannot look at it
// here"), as a delete there already was; the same read is 0 where it can
// look, and a link to a key is 2 by what it is.
//
// Real processes, no mock: the built engine (npm test builds dist first)
// judges in a child running as nobody, against a root-owned 0700 directory
// made here. Skipped, with the reason, where that cannot be set up.
import { spawnSync } from "node:child_process";
import { accessSync, chmodSync, constants, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { named } from "../support/needs.js";
import { repoRoot } from "../support/stack.js";

const ENGINE = join(repoRoot, "dist/services/classifier/engine/index.js");
const NOBODY = ["--reuid=65534", "--regid=65534", "--clear-groups"];

function skipReason(): string | undefined {
  if (process.getuid?.() !== 0) return "needs root (it judges as nobody)";
  if (!existsSync("/usr/bin/setpriv")) return "setpriv (util-linux) is missing";
  if (!existsSync(ENGINE)) return "dist/ is not built (npm test builds it)";
  const r = spawnSync("/usr/bin/setpriv", [...NOBODY, "test", "-r", ENGINE], { encoding: "utf8" });
  if (r.status !== 0) return `nobody cannot read ${ENGINE} (a checkout under a private directory)`;
  return undefined;
}
const SKIP = skipReason();

/** The verdicts of `commands` judged from the hook with cwd `cwd`, by the engine running as nobody. */
function judgeAsNobody(cwd: string, commands: string[]): Array<{ tier: number; reason: string }> {
  const script = `
    const { loadEngine } = await import(${JSON.stringify(ENGINE)});
    const e = await loadEngine(${JSON.stringify(join(repoRoot, "policies"))});
    const out = JSON.parse(process.argv[1]).map((command) => {
      const v = e.classify({ command, cwd: ${JSON.stringify(cwd)}, host: "primary", source: "claude" });
      return { tier: v.tier, reason: v.reason };
    });
    console.log(JSON.stringify(out));`;
  const r = spawnSync("/usr/bin/setpriv", [...NOBODY, process.execPath, "--input-type=module", "-e", script, JSON.stringify(commands)], {
    encoding: "utf8",
    timeout: 60_000,
  });
  if (r.status !== 0) throw new Error(`judge as nobody: ${r.stderr}`);
  return JSON.parse(r.stdout) as Array<{ tier: number; reason: string }>;
}

let base = "";
let closed = "";
let open = "";
beforeAll(() => {
  if (SKIP) return;
  base = mkdtempSync("/var/tmp/agent-sudo-hidden-view-");
  chmodSync(base, 0o755);
  // A key behind a 0700 directory (as ~/.ssh always is), and one the classifier may look at.
  mkdirSync(join(base, ".ssh"), { mode: 0o700 });
  writeFileSync(join(base, ".ssh/id_ed25519"), "-----BEGIN OPENSSH PRIVATE KEY-----\n", { mode: 0o600 });
  mkdirSync(join(base, "keys/.ssh"), { recursive: true, mode: 0o755 });
  chmodSync(join(base, "keys/.ssh"), 0o755);
  writeFileSync(join(base, "keys/.ssh/id_ed25519"), "-----BEGIN OPENSSH PRIVATE KEY-----\n", { mode: 0o600 });
  for (const [dir, mode] of [
    ["home-closed", 0o700],
    ["home-open", 0o755],
  ] as const) {
    const ws = join(base, dir, "project");
    mkdirSync(ws, { recursive: true });
    chmodSync(join(base, dir), mode);
    chmodSync(ws, 0o755);
    writeFileSync(join(ws, "README.md"), "hello\n", { mode: 0o644 });
    symlinkSync(join(base, ".ssh/id_ed25519"), join(ws, "notes.txt"));
    symlinkSync(join(base, "keys/.ssh/id_ed25519"), join(ws, "key.txt"));
  }
  // Trees for the readers that follow links: one holds a link into the 0700 ~/.ssh, one a link to a 0700
  // directory that is no secret place by name, one only a link it can follow to a plain file.
  mkdirSync(join(base, "private"), { mode: 0o700 });
  writeFileSync(join(base, "private/notes"), "-----BEGIN OPENSSH PRIVATE KEY-----\n", { mode: 0o600 });
  const ws = join(base, "home-open", "project");
  for (const dir of ["docs", "docs-private", "docs-clean"]) {
    mkdirSync(join(ws, dir), { mode: 0o755 });
    chmodSync(join(ws, dir), 0o755);
    writeFileSync(join(ws, dir, "a.md"), "hello\n", { mode: 0o644 });
  }
  symlinkSync(join(base, ".ssh/id_ed25519"), join(ws, "docs/notes.txt"));
  symlinkSync(join(base, "private"), join(ws, "docs-private/more"));
  symlinkSync(join(ws, "README.md"), join(ws, "docs-clean/readme.md"));
  // A key saved under another name, one the classifier may not read, and plain files beside them (round 21).
  writeFileSync(join(ws, "backup.txt"), "notes\n-----BEGIN OPENSSH PRIVATE KEY-----\nplaceholder\n", { mode: 0o644 });
  writeFileSync(join(ws, "sa.json"), '{"type":"service_account","private_key": "-----BEGIN PRIVATE KEY-----\\nx"}\n', { mode: 0o644 });
  writeFileSync(join(ws, "mine.txt"), "hello\n", { mode: 0o600 });
  closed = join(base, "home-closed", "project");
  open = join(base, "home-open", "project");
});
afterAll(() => {
  if (base.startsWith("/var/tmp/agent-sudo-hidden-view-")) rmSync(base, { recursive: true, force: true });
});

describe.skipIf(!!SKIP)(named("the hook's reads where the classifier cannot look", SKIP), () => {
  it("the control: nobody really cannot look into the closed home, and can into the open one", () => {
    const look = (p: string) => spawnSync("/usr/bin/setpriv", [...NOBODY, "stat", p]).status;
    expect(look(join(closed, "README.md"))).not.toBe(0);
    expect(look(join(open, "README.md"))).toBe(0);
    accessSync(join(closed, "README.md"), constants.R_OK); // root can
  });

  it("a read of a file it cannot look at is 2, with the reason and what to do; where it can look, 0 — and a link to a key is 2 by what it is", () => {
    const [linkClosed, readmeClosed, headClosed] = judgeAsNobody(closed, ["cat notes.txt", "cat README.md", "head -3 README.md"]);
    for (const v of [linkClosed, readmeClosed, headClosed]) {
      expect(v?.tier).toBe(2);
      expect(v?.reason).toMatch(/cannot look at here/);
    }
    // In an open home: a link into a 0700 ~/.ssh cannot be followed (2, cannot look); one it can follow to a
    // key is 2 as a secret; a plain file is 0.
    const [behindClosed, keyOpen, readmeOpen] = judgeAsNobody(open, ["cat notes.txt", "cat key.txt", "cat README.md"]);
    expect(behindClosed?.tier).toBe(2);
    expect(behindClosed?.reason).toMatch(/cannot look at here/);
    expect(keyOpen?.tier).toBe(2);
    expect(keyOpen?.reason).toMatch(/reads a secret/);
    expect(readmeOpen?.tier).toBe(0);
    // A glob is judged by the way to each of its matches.
    const [all, txt, md] = judgeAsNobody(open, ["cat *", "cat *.txt", "cat *.md"]);
    expect([all?.tier, txt?.tier, md?.tier]).toEqual([2, 2, 0]);
    // So is a brace word, by each path it makes (with or without a glob in it).
    expect(
      judgeAsNobody(open, [
        "cat {notes,x}.txt",
        "cat {README,notes}.*",
        "head {key,notes}.txt",
        "cat {README,x}.md",
        "cat README.{md,txt}",
      ]).map((v) => v.tier),
    ).toEqual([2, 2, 2, 0, 0]);
  });

  it("a reader that follows links through a tree (cp -rL, rsync -L, tar -h, zip, grep -R, find -L … -exec cat) is 2 where a link leads where it cannot look; 0–1 where it can follow every link", () => {
    const readers = (t: string) => [
      `cp -rL ${t} out`,
      `rsync -aL ${t}/ out/`,
      `tar -chf x.tar ${t}`,
      `zip -r x.zip ${t}`,
      `grep -R x ${t}`,
      `find -L ${t} -type f -exec cat {} +`,
      `find ${t} -exec cat {} +`,
      `diff -r ${t} docs-clean`,
    ];
    for (const tree of ["docs", "docs-private"]) {
      const verdicts = judgeAsNobody(open, readers(tree));
      for (const [i, v] of verdicts.entries()) {
        expect({ command: readers(tree)[i], tier: v.tier }).toEqual({ command: readers(tree)[i], tier: 2 });
        expect(v.reason).toMatch(/cannot (look behind|list|be listed) here/);
      }
    }
    // Every link in docs-clean leads where nobody may look: copies are 1 (workspace writes), reads 0.
    expect(judgeAsNobody(open, readers("docs-clean")).map((v) => v.tier)).toEqual([1, 1, 1, 1, 0, 0, 0, 0]);
    // Readers that do not follow links below the tree are not raised by them.
    expect(
      judgeAsNobody(open, ["cp -r docs out", "grep -r x docs", "find docs -type f -exec cat {} +", "ls -laR docs"]).map((v) => v.tier),
    ).toEqual([1, 0, 0, 0]);
  });

  it("an input redirection from a link it cannot look behind is 2 however the shell spells it; from a file it can see, 0", () => {
    const reads = [
      "cat < notes.txt",
      "wc -c < notes.txt",
      "tee x < notes.txt",
      "cat 0< notes.txt",
      "{ cat; } < notes.txt",
      "(cat) < notes.txt",
      "while read l; do echo $l; done < notes.txt",
      "mapfile a < notes.txt; echo $a",
      "exec 3< notes.txt; cat <&3",
    ];
    for (const [i, v] of judgeAsNobody(open, reads).entries()) {
      expect({ command: reads[i], tier: v.tier }).toEqual({ command: reads[i], tier: 2 });
      expect(v.reason).toMatch(/cannot look at here/);
    }
    expect(judgeAsNobody(open, ["cat < README.md", "wc -l < README.md"]).map((v) => v.tier)).toEqual([0, 0]);
  });

  it("a file whose first bytes hold a private key is a secret whatever its name; one it may not read is 2; plain files stay 0", () => {
    const [backup, sa, grep, mine, readme, list] = judgeAsNobody(open, [
      "cat backup.txt",
      "head -3 sa.json",
      "grep x backup.txt",
      "cat mine.txt",
      "cat README.md",
      "ls -l backup.txt mine.txt",
    ]);
    for (const v of [backup, sa, grep]) {
      expect(v?.tier).toBe(2);
      expect(v?.reason).toMatch(/holds a private key/);
    }
    expect(mine?.tier).toBe(2);
    expect(mine?.reason).toMatch(/may not read here/);
    expect([readme?.tier, list?.tier]).toEqual([0, 0]);
  });

  it("commands that read no file by path stay where they were (ls, git status, echo)", () => {
    expect(judgeAsNobody(closed, ["ls", "echo hi", "pwd"]).map((v) => v.tier)).toEqual([0, 0, 0]);
  });
});

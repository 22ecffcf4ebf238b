import picomatch from "picomatch";
import { describe, expect, it } from "vitest";
import { globSet, requiredLiteral } from "./glob-set.js";
import { PATH_GLOB_LISTS } from "./paths.js";

/** picomatch's own answer for a list: any glob matches. */
const reference = (globs: readonly string[]) => {
  const res = globs.map((g) => picomatch.makeRe(g, { dot: true }));
  return (path: string) => res.some((re) => re.test(path));
};

// What a glob's special parts may stand for, including what they must not match (`..`, an empty segment).
const STAR_FILL = ["", "x", ".x", "a.b", "..", "a/b"];
const GLOBSTAR_FILL = ["", "a", ".a", "a/b", "..", "a/../b", "./a", "a//b"];

/** Concrete paths near a glob: its parts filled in several ways (some match, some just miss). */
function instances(glob: string): string[] {
  let out = [glob];
  const steps: Array<[RegExp, string[]]> = [
    [/\*\*/, GLOBSTAR_FILL],
    [/\*/, STAR_FILL],
    [/\?/, ["x", ".", "/", ""]],
  ];
  for (let round = 0; round < 4; round++) {
    const next: string[] = [];
    for (const s of out) {
      const ext = /@\(([^)]*)\)/.exec(s);
      if (ext) {
        for (const alt of [...(ext[1] ?? "").split("|"), "zz"]) next.push(s.replace(ext[0], alt));
        continue;
      }
      const step = steps.find(([re]) => re.test(s));
      if (!step) {
        next.push(s);
        continue;
      }
      for (const fill of step[1]) next.push(s.replace(step[0], fill));
    }
    out = [...new Set(next)].slice(0, 400);
  }
  const around = out.flatMap((p) => [
    p,
    `/home/u/${p}`,
    `/${p}`,
    `./${p}`,
    `${p}/`,
    `${p}/x`,
    `${p}x`,
    `x${p}`,
    p.toUpperCase(),
    p.slice(1),
    p.slice(0, -1),
  ]);
  return [...new Set(around)];
}

describe("glob sets: the literal prefilter answers as picomatch does", () => {
  it("finds the literal every match must contain", () => {
    expect(requiredLiteral("**/.ssh/**")).toBe(".ssh");
    expect(requiredLiteral("/etc/ssh/ssh_host_*_key")).toBe("etc/ssh/ssh_host_");
    expect(requiredLiteral("**/secrets.@(yml|yaml|json)")).toBe("secrets.");
    expect(requiredLiteral("/dev/@(sd|hd|vd)*")).toBe("dev");
    expect(requiredLiteral("**/*.pem")).toBe(".pem");
    expect(requiredLiteral("/proc/*/environ")).toBe("environ");
    expect(requiredLiteral("**")).toBe("");
    expect(requiredLiteral("a[bc]d{e,f}g")).toBe("a");
    // `**/x` matches "x" and `x/**` matches "x": the slashes beside ** are not required.
    expect(picomatch.makeRe("**/.netrc", { dot: true }).test(".netrc")).toBe(true);
    expect(picomatch.makeRe("/etc/agent-sudo/**", { dot: true }).test("/etc/agent-sudo")).toBe(true);
  });

  for (const [name, globs] of Object.entries(PATH_GLOB_LISTS)) {
    it(`${name}: the same answer on every instance of every glob in the classifier's lists, and their neighbours`, () => {
      const fast = globSet(globs);
      const slow = reference(globs);
      const paths = [...new Set(Object.values(PATH_GLOB_LISTS).flat().flatMap(instances))];
      const differ = paths.filter((p) => fast(p) !== slow(p));
      expect(differ).toEqual([]);
      const matched = paths.filter(slow).length;
      // The instances exercise both answers (a generator that missed every glob would prove nothing).
      expect(matched).toBeGreaterThan(globs.length);
      expect(paths.length - matched).toBeGreaterThan(globs.length);
    });
  }

  it("keeps every glob reachable when one has no literal, and reads literals with regex characters as text", () => {
    // `**` needs no literal: the one-alternation prefilter must not hide it.
    const withBare = globSet(["**/.ssh/**", "**"]);
    expect(withBare("/srv/plain.txt")).toBe(true);
    // `.` `+` `$` in a literal are text: `a+b.c` must not match "aab-c".
    const meta = globSet(["**/a+b.c", "**/x$y/**"]);
    expect(meta("/p/a+b.c")).toBe(true);
    expect(meta("/p/aab-c")).toBe(false);
    expect(meta("/p/x$y/z")).toBe(true);
    expect(meta("/p/xy/z")).toBe(false);
  });

  it("agrees on random paths built from the lists' own literals and path noise", () => {
    const globs = Object.values(PATH_GLOB_LISTS).flat();
    const fast = globSet(globs);
    const slow = reference(globs);
    const pieces = [...new Set(globs.map(requiredLiteral).filter(Boolean)), "", ".", "..", "a", ".x", "~", "etc", "home", "u"];
    let seed = 20261203;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return seed % n;
    };
    const differ: string[] = [];
    let matched = 0;
    for (let i = 0; i < 20000; i++) {
      const n = 1 + rand(5);
      const segs = Array.from({ length: n }, () => pieces[rand(pieces.length)] as string);
      const p = (rand(3) === 0 ? "" : "/") + segs.join(rand(4) === 0 ? "" : "/") + (rand(5) === 0 ? "/" : "");
      const want = slow(p);
      if (fast(p) !== want) differ.push(p);
      if (want) matched++;
    }
    expect(differ).toEqual([]);
    expect(matched).toBeGreaterThan(1000);
  });
});

// Package-state undo: which packages a command names, what dpkg says about
// them, and the plan that puts them back. The plan is checked, never run.
import { describe, expect, it } from "vitest";
import { changesPackages, installedPackages, packageRevert } from "./packages.js";

describe("changesPackages", () => {
  it("sees installs, removals and upgrades, named or not", () => {
    for (const c of [
      "apt-get install -y htop",
      "DEBIAN_FRONTEND=noninteractive apt -q purge redis-server",
      "dpkg -r libfoo1",
      "apt-get -y dist-upgrade",
      "apt --fix-broken install",
    ]) {
      expect(changesPackages(c), c).toBe(true);
    }
  });

  it("ignores commands that change no packages", () => {
    for (const c of ["apt-cache policy htop", "apt list --installed", "dpkg -l"]) expect(changesPackages(c), c).toBe(false);
  });
});

describe("packageRevert", () => {
  const before = [
    { name: "bash", version: "5.2.15-2+b8" },
    { name: "nginx", version: "1.22.1-9" },
    { name: "curl", version: "7.88.1-10" },
  ];
  const after = [
    { name: "bash", version: "5.2.15-2+b8" },
    { name: "nginx", version: "1.22.1-10" },
    { name: "cowsay", version: "3.03+dfsg2-8" },
    { name: "libtext-charwidth-perl:amd64", version: "0.04-11" },
  ];

  it("reverts exactly what the command changed: removes what it added, reinstalls what it changed or removed", () => {
    expect(packageRevert(before, after, after)).toEqual({
      remove: ["cowsay", "libtext-charwidth-perl:amd64"],
      reinstall: ["nginx=1.22.1-9", "curl=7.88.1-10"],
      skipped: [],
    });
    expect(packageRevert(before, before, before)).toEqual({ remove: [], reinstall: [], skipped: [] });
  });

  it("leaves alone what changed again since, and whatever else happened meanwhile", () => {
    const now = [...after.filter((p) => p.name !== "nginx"), { name: "nginx", version: "1.22.1-11" }, { name: "htop", version: "3.2.2-2" }];
    const r = packageRevert(before, after, now);
    expect(r.skipped).toEqual(["nginx"]);
    expect(r.remove).toEqual(["cowsay", "libtext-charwidth-perl:amd64"]);
    expect(r.remove).not.toContain("htop");
  });
});

describe("installedPackages", () => {
  it.skipIf(!process.env.PATH?.includes("/usr/bin"))("lists what dpkg has installed", () => {
    const all = installedPackages();
    expect(all.length).toBeGreaterThan(50);
    expect(all.find((p) => p.name === "bash" || p.name.startsWith("bash:"))?.version).toMatch(/^\d/);
  });
});

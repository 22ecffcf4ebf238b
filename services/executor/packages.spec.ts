// Package-state undo: which packages a command names, what dpkg says about
// them, and the plan that puts them back. The plan is checked, never run.
import { describe, expect, it } from "vitest";
import { installedPackages, namedPackages, packagePlan, packageStates } from "./packages.js";

describe("namedPackages", () => {
  it("finds the packages of install/remove/purge/upgrade commands", () => {
    expect(namedPackages("apt-get install -y htop nginx=1.22.1-9")).toEqual(["htop", "nginx"]);
    expect(namedPackages("DEBIAN_FRONTEND=noninteractive apt -q purge redis-server")).toEqual(["redis-server"]);
    expect(namedPackages("dpkg -r libfoo1")).toEqual(["libfoo1"]);
    expect(namedPackages("apt-get install -y ./local.deb python3-pip/bookworm")).toEqual(["python3-pip"]);
  });

  it("ignores commands that change no packages", () => {
    expect(namedPackages("apt-cache policy htop")).toEqual([]);
    expect(namedPackages("apt list --installed")).toEqual([]);
    expect(namedPackages("echo apt-get install xyz")).toEqual(["xyz"]); // over-inclusive is harmless: it only records
  });
});

describe("packageStates", () => {
  it.skipIf(!process.env.PATH?.includes("/usr/bin"))("reads installed versions and absences from dpkg", () => {
    const [bash, missing] = packageStates(["bash", "agent-sudo-no-such-package"]);
    expect(bash?.version).toMatch(/^\d/);
    expect(missing).toEqual({ name: "agent-sudo-no-such-package", version: null });
  });
});

describe("packagePlan", () => {
  it("removes what was absent and reinstalls changed versions from the cache, and leaves the rest", () => {
    const before = [
      { name: "htop", version: null },
      { name: "nginx", version: "1.22.1-9" },
      { name: "curl", version: "7.88.1-10" },
    ];
    const now = [
      { name: "htop", version: "3.2.2-2" },
      { name: "nginx", version: "1.22.1-10" },
      { name: "curl", version: "7.88.1-10" },
    ];
    expect(packagePlan(before, now)).toEqual([
      ["apt-get", "remove", "-y", "htop"],
      ["apt-get", "install", "-y", "--no-download", "--allow-downgrades", "nginx=1.22.1-9"],
    ]);
    expect(packagePlan(before, before)).toEqual([]);
  });

  it("with a complete record, removes every package the command added (its dependencies too)", () => {
    const before = [{ name: "bash", version: "5.2.15-2+b8" }];
    const now = [...before, { name: "cowsay", version: "3.03+dfsg2-8" }, { name: "libtext-charwidth-perl:amd64", version: "0.04-11" }];
    expect(packagePlan(before, now, true)).toEqual([
      ["apt-get", "remove", "-y", "libtext-charwidth-perl:amd64"],
      ["apt-get", "remove", "-y", "cowsay"],
    ]);
    // Without the complete flag an unrecorded package is none of its business.
    expect(packagePlan(before, now)).toEqual([]);
  });

  it.skipIf(!process.env.PATH?.includes("/usr/bin"))("installedPackages lists what dpkg has installed", () => {
    const all = installedPackages();
    expect(all.length).toBeGreaterThan(50);
    expect(all.find((p) => p.name === "bash" || p.name.startsWith("bash:"))?.version).toMatch(/^\d/);
  });
});

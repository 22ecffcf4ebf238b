import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { startThrowawayRoot } from "../../test/support/throwaway-root.js";
import { dryRunForm } from "./dry-run.js";

describe("dry-run forms for trials without network", () => {
  it.each([
    ["apt-get install -y cowsay", "apt-get -s install -y cowsay"],
    ["apt install --no-install-recommends nginx", "apt -s install --no-install-recommends nginx"],
    ["DEBIAN_FRONTEND=noninteractive apt-get -y upgrade", "DEBIAN_FRONTEND=noninteractive apt-get -s -y upgrade"],
    ["apt-get dist-upgrade -y", "apt-get -s dist-upgrade -y"],
    ["/usr/bin/apt-get reinstall bash", "/usr/bin/apt-get -s reinstall bash"],
  ])("%s → %s", (command, form) => {
    expect(dryRunForm(command)).toBe(form);
  });

  it.each([
    ["apt-get update", "does not download packages to install"],
    ["apt-get remove -y cowsay", "runs offline as written"],
    ["apt-get install --no-simulate cowsay", "an option that turns the simulation off"],
    ["apt-get install --simulate=no cowsay", "the same, by value"],
    ["apt-get -o APT::Get::Simulate=false install cowsay", "a config override"],
    ["apt-get -c /tmp/x.conf install cowsay", "another config file"],
    ["apt-get install cowsay && rm -rf /tmp/x", "more than one command"],
    ['apt-get install "$(cat /tmp/list)"', "an expansion"],
    ["pip install requests", "not apt"],
    ["sudo apt-get install cowsay", "a wrapper (the gateway strips sudo before the trial)"],
  ])("%s: none (%s)", (command) => {
    expect(dryRunForm(command)).toBeUndefined();
  });

  // In a throwaway root: even a simulation rewrites apt's caches (/var/cache/apt/*.bin) on the machine it runs on.
  it.skipIf(!hasApt())(
    "the form really is a simulation: apt-get -s install changes nothing and needs no network",
    async () => {
      const root = await startThrowawayRoot();
      try {
        const packages = async () => (await root.exec(["dpkg-query", "-W", "-f", "${Package} ${Version}\\n"])).stdout;
        const before = await packages();
        expect(before).toMatch(/^bash /m);
        const form = dryRunForm("apt-get install -y bash") ?? "";
        const r = await root.exec(["unshare", "--net", "--", "/bin/sh", "-c", form]);
        expect(r.code, r.stderr).toBe(0);
        expect(r.stdout).toMatch(/bash is already the newest version|^Inst bash /m);
        expect(await packages()).toBe(before);
      } finally {
        await root.close();
      }
    },
    60_000,
  );
});

function hasApt(): boolean {
  try {
    execFileSync("apt-get", ["--version"], { stdio: "ignore" });
    return process.getuid?.() === 0;
  } catch {
    return false;
  }
}

import { describe, expect, it } from "vitest";
import { undoPlan } from "./undo-plan.js";

describe("undoPlan", () => {
  it("names redirection targets and path words, resolved against cwd", () => {
    expect(undoPlan("echo x > out.txt", "/srv/app")).toEqual(["/srv/app/out.txt"]);
    expect(undoPlan("echo x >> /etc/motd", "")).toEqual(["/etc/motd"]);
    expect(undoPlan("sed -i s/a/b/ config.ini", "/srv/app")).toContain("/srv/app/config.ini");
    expect(undoPlan("cp a.conf b.conf && chmod 600 b.conf", "/etc/x")).toEqual(expect.arrayContaining(["/etc/x/a.conf", "/etc/x/b.conf"]));
  });

  it("skips flags, URLs, variables and pseudo filesystems", () => {
    const plan = undoPlan("rm -f ./build/out.o; curl https://example.invalid/x; cat $HOME/x; echo 1 > /proc/sys/x", "/w");
    expect(plan).toEqual(["/w/build/out.o"]);
  });

  it("never offers / itself, and needs a cwd for relative paths", () => {
    expect(undoPlan("touch /", "/w")).toEqual([]);
    expect(undoPlan("touch rel.txt", "")).toEqual([]);
  });
});

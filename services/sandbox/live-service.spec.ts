import { describe, expect, it } from "vitest";
import { liveService } from "./live-service.js";
import { effectiveWords, simpleCommands } from "./words.js";

describe("liveService", () => {
  it.each([
    ["systemctl restart nginx", "systemctl restart"],
    ["sudo systemctl stop docker", "systemctl stop"],
    ["systemctl enable --now foo", "systemctl enable"],
    ["service ssh reload", "service reload"],
    ["docker restart web", "docker restart"],
    ["docker compose -f x.yml up -d", "docker compose up"],
    ["echo hi && reboot", "reboot"],
    ["timeout 5 shutdown -h now", "shutdown"],
    ["env A=1 pkill -f worker", "pkill"],
    ["ip addr add 10.0.0.2/24 dev eth0", "ip addr"],
    ["x=$(systemctl restart a)", "systemctl restart"],
  ])("%s is live (%s)", (cmd, why) => expect(liveService(cmd)).toBe(why));

  it.each([
    "systemctl status nginx",
    "systemctl enable foo",
    "docker ps",
    "ip addr show",
    "echo systemctl restart x",
    "iptables -L",
    "apt-get install -y jq",
  ])("%s is trialled", (cmd) => expect(liveService(cmd)).toBeUndefined());
});

describe("simpleCommands", () => {
  it("splits lists and pipes, removes quotes, finds redirect targets", () => {
    const cmds = simpleCommands(`echo 'a b' > /etc/x 2>&1; cat "/y" | tee -a /z >> /w`);
    expect(cmds.map((c) => c.words)).toEqual([
      ["echo", "a b"],
      ["cat", "/y"],
      ["tee", "-a", "/z"],
    ]);
    expect(cmds.flatMap((c) => c.writes)).toEqual(["/etc/x", "/w"]);
  });
  it("strips prefixes", () => {
    expect(effectiveWords(["sudo", "-u", "bob", "env", "A=1", "nice", "-n", "5", "timeout", "10", "rm", "-f", "/x"])).toEqual([
      "rm",
      "-f",
      "/x",
    ]);
  });
});

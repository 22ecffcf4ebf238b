// Benign tiers 1–3 are transactional and faithful: the command runs once in
// the mirror and its committed diff is exactly what running it directly
// would have left — bytes, mode, owner, links — on /etc, /opt, /var/lib and
// /tmp; `agent-sudo rollback` puts the host back; a host path changed while
// the command ran is a 409 and nothing is committed. The stack runs inside
// a throwaway root (test/support/rooted-stack.ts): these commands write real
// system paths, which here are the root's copy-on-write overlays.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { missing } from "../support/needs.js";
import { startRootedStack, type RootedStack } from "../support/rooted-stack.js";

const isRoot = process.getuid?.() === 0;
const skipReason = !isRoot ? "skipped: needs root (the throwaway root and the stack's executor)" : missing("unshare", "nsenter", "perl");

/** A tool that keeps its own state (written by the test into the root, as a package would install it). */
const TOOL = `#!/bin/sh
set -e
umask 022
mkdir -p /var/lib/demo-tool /opt/demo-tool/cache/v1
printf '{"initialised":true,"by":"%s"}\\n' "$1" > /var/lib/demo-tool/state.json
chmod 600 /var/lib/demo-tool/state.json
printf 'index\\n' > /opt/demo-tool/cache/v1/index
ln -sfn cache/v1 /opt/demo-tool/current
chown -R daemon:daemon /opt/demo-tool/cache
echo initialised
`;

/** type mode owner size digest/target of every entry under the paths (sorted), as root inside. */
const TREE = (paths: string) =>
  `for p in ${paths}; do [ -e "$p" ] || [ -L "$p" ] || { echo "absent $p"; continue; }; find "$p" -printf '%y %m %U:%G %s %p -> %l\\n'; find "$p" -type f -exec sha256sum {} +; done | LC_ALL=C sort`;

describe.skipIf(skipReason)(
  `transactional tiers: benign commands, committed as run directly, rolled back, conflicts${skipReason ? ` — ${skipReason}` : ""}`,
  () => {
    let s: RootedStack;

    beforeAll(async () => {
      s = await startRootedStack({ env: { AGENT_SUDO_HOST_ID: "server-01", AGENT_SUDO_BREAKER_TRIP_ON_TIER4: "0" } });
      const setup = await s.sh(
        [
          "printf 'mode=old\\nport=80\\n' > /etc/demo.conf && chown root:daemon /etc/demo.conf && chmod 640 /etc/demo.conf",
          "cp -p /etc/demo.conf /etc/demo-twin.conf",
          "printf 'a=1\\n' > /etc/demo-conflict.conf",
          `printf '%s' '${TOOL.replace(/'/g, `'\\''`)}' > /usr/local/bin/demo-tool && chmod 755 /usr/local/bin/demo-tool`,
        ].join(" && "),
      );
      expect(setup.code, setup.stderr).toBe(0);
    }, 180_000);

    afterAll(async () => {
      await s?.stop();
    });

    async function tree(paths: string): Promise<string> {
      const r = await s.sh(TREE(paths));
      expect(r.code, r.stderr).toBe(0);
      return r.stdout;
    }

    it("sed -i of a config under /etc: the committed bytes, mode and owner are those of sed -i run directly; rollback restores them", async () => {
      const before = await tree("/etc/demo.conf");
      const res = await s.exec({ command: "sed -i 's/^mode=old/mode=new/' /etc/demo.conf" });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({ exit_code: 0, committed: 1 });
      const direct = await s.sh("sed -i 's/^mode=old/mode=new/' /etc/demo-twin.conf");
      expect(direct.code).toBe(0);
      const [mine, twin] = [await tree("/etc/demo.conf"), await tree("/etc/demo-twin.conf")];
      expect(mine.replaceAll("/etc/demo.conf", "F")).toBe(twin.replaceAll("/etc/demo-twin.conf", "F"));
      expect(mine).toContain("f 640 0:1 ");
      expect(await s.sh("cat /etc/demo.conf").then((r) => r.stdout)).toBe("mode=new\nport=80\n");

      const back = await s.cli(["rollback", String(res.body.undo_id)]);
      expect(back.code, back.stderr + back.stdout).toBe(0);
      expect(await tree("/etc/demo.conf")).toBe(before);
    });

    it("an unknown program writing its own state under /var/lib and /opt: committed exactly as a direct run leaves it, rollback removes exactly it", async () => {
      const paths = "/var/lib/demo-tool /opt/demo-tool";
      expect(await tree(paths)).toBe("absent /opt/demo-tool\nabsent /var/lib/demo-tool\n");
      const res = await s.exec({ command: "demo-tool agent" });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({ exit_code: 0, output: "initialised\n" });
      expect(Number(res.body.committed)).toBeGreaterThanOrEqual(6);
      const committed = await tree(paths);
      expect(committed).toContain("f 600 0:0 ");
      expect(committed).toContain("l 777 0:0 8 /opt/demo-tool/current -> cache/v1");

      const back = await s.cli(["rollback", String(res.body.undo_id)]);
      expect(back.code, back.stderr + back.stdout).toBe(0);
      expect(await tree(paths)).toBe("absent /opt/demo-tool\nabsent /var/lib/demo-tool\n");

      const direct = await s.sh("demo-tool agent");
      expect(direct.stdout).toBe("initialised\n");
      expect(await tree(paths)).toBe(committed);
    });

    it("files and a link created under /tmp: committed as created directly", async () => {
      const cmd = (d: string) => `mkdir -p ${d}/new && printf 'x\\n' > ${d}/new/f && chmod 600 ${d}/new/f && ln -s new/f ${d}/link`;
      const res = await s.exec({ command: cmd("/tmp/demo-a") });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body, JSON.stringify(res.body)).toMatchObject({ exit_code: 0, committed: 4 });
      expect([1, 2]).toContain(res.body.tier);
      expect((await s.sh(cmd("/tmp/demo-b"))).code).toBe(0);
      const [a, b] = [await tree("/tmp/demo-a"), await tree("/tmp/demo-b")];
      expect(a.replaceAll("/tmp/demo-a", "D")).toBe(b.replaceAll("/tmp/demo-b", "D"));
    });

    it("a host path changed while the command ran: 409 conflict, nothing committed, the other writer's change kept", async () => {
      const pending = s.exec({ command: "sed -i s/a=1/a=2/ /etc/demo-conflict.conf; sleep 2" });
      await new Promise((r) => setTimeout(r, 900));
      expect((await s.sh("printf 'a=theirs\\n' > /etc/demo-conflict.conf")).code).toBe(0);
      const res = await pending;
      expect(res.status, JSON.stringify(res.body)).toBe(409);
      expect(res.body).toMatchObject({ error: "conflict" });
      expect(String(res.body.details)).toContain("/etc/demo-conflict.conf changed on the host while the command ran");
      expect(await s.sh("cat /etc/demo-conflict.conf").then((r) => r.stdout)).toBe("a=theirs\n");
      // Retried once the other writer is done, it commits.
      const again = await s.exec({ command: "sed -i s/a=theirs/a=2/ /etc/demo-conflict.conf" });
      expect(again.status, JSON.stringify(again.body)).toBe(200);
      expect(await s.sh("cat /etc/demo-conflict.conf").then((r) => r.stdout)).toBe("a=2\n");
    });
  },
);

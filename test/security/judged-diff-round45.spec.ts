// Review 45 (judged diff, after review 39): what review 39 left open. A drop-in in a prefix directory (`demo-.service.d`,
// `demo-web-.service.d`) applies to every unit whose name starts with that prefix (systemd.unit(5), the hyphen rule),
// and one in a type-wide directory (`service.d`) to every unit of the type, in any of the system manager's unit
// directories: both judges compare it with each host unit it applies to (here a tree made for the test), as they do a
// unit's own drop-in, and a drop-in of a unit's own name masks the vendor's prefix drop-in of that name. User units
// (/etc/systemd/user, /usr/lib/systemd/user) run in every user's manager, root's too: code from a user's place there
// is refused. Each diff is judged by the real classifier engine and the real concurrence, in process: attacks are
// refused by both (tier 4); the benign look-alikes stay ≤ 3 in both; the last test checks that the judges agree.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll } from "vitest";
import { link, type Row, rowSuites, w } from "./judged-diff-harness.js";

// The host's own units, as a vendor installs them: the judges read them under this root.
const ROOT = mkdtempSync(join(tmpdir(), "judged-diff-units-"));
const put = (path: string, text: string) => {
  mkdirSync(dirname(join(ROOT, path)), { recursive: true });
  writeFileSync(join(ROOT, path), text);
};
put(
  "/lib/systemd/system/demo-worker.service",
  `[Service]
ExecStart=/usr/sbin/demo-worker
User=demo
NoNewPrivileges=yes
ProtectSystem=strict
ProtectHome=yes
ProtectProc=invisible
CapabilityBoundingSet=CAP_NET_BIND_SERVICE
SystemCallFilter=@system-service
SystemCallFilter=~@privileged @resources
RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX
DevicePolicy=closed
IPAddressDeny=any
IPAddressAllow=localhost
UMask=0077
`,
);
put("/usr/lib/systemd/system/demo-web-api.service", "[Service]\nExecStart=/usr/sbin/demo-api\nProtectSystem=full\nPrivateTmp=yes\n");
put("/usr/lib/systemd/system/demo-.service.d/harden.conf", "[Service]\nRestrictSUIDSGID=yes\nLockPersonality=yes\n");
put("/lib/systemd/system/pool-x@.service", "[Service]\nExecStart=/usr/bin/pool %i\nUser=pool\nProtectKernelTunables=yes\nUMask=0077\n");
put("/lib/systemd/system/plain.service", "[Service]\nExecStart=/usr/bin/plain\n");
put("/lib/systemd/system/locked.service", "[Service]\nExecStart=/usr/bin/locked\nProtectSystem=strict\nProtectHome=yes\nUMask=0077\n");
put("/usr/share/demo/lax.conf", "[Service]\nProtectSystem=full\n");
// More units of one prefix than the judges compare a prefix drop-in with.
for (let i = 0; i < 65; i++) put(`/usr/lib/systemd/system/many-${i}.service`, "[Service]\nExecStart=/usr/bin/many\nProtectSystem=strict\n");
const E = "/etc/systemd/system";
const svc = (body: string) => `[Service]\n${body}\n`;
const P = `${E}/demo-.service.d/x.conf`;

const PREFIX: Row[] = [
  w("demo-.service.d: ProtectSystem=full (demo-worker: strict)", P, svc("ProtectSystem=full")),
  w("demo-.service.d: ProtectHome=read-only (demo-worker: yes)", P, svc("ProtectHome=read-only")),
  w("demo-.service.d: ProtectProc=ptraceable (demo-worker: invisible)", P, svc("ProtectProc=ptraceable")),
  w("demo-.service.d: UMask=0022 (demo-worker: 0077)", P, svc("UMask=0022")),
  w("demo-.service.d: RestrictAddressFamilies= adds AF_PACKET", P, svc("RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX AF_PACKET")),
  w("demo-.service.d: SystemCallFilter= allows @resources again", P, svc("SystemCallFilter=@resources")),
  w("demo-.service.d: CapabilityBoundingSet= adds CAP_SYS_NICE", P, svc("CapabilityBoundingSet=CAP_SYS_NICE")),
  w("demo-.service.d: IPAddressAllow=10.0.0.0/8 (demo-worker denies it)", P, svc("IPAddressAllow=10.0.0.0/8")),
  w("demo-web-.service.d: ProtectSystem=yes (demo-web-api: full)", `${E}/demo-web-.service.d/x.conf`, svc("ProtectSystem=yes")),
  w("demo-.service.d: ProtectSystem=yes, for demo-web-api (full)", `${E}/demo-.service.d/10-x.conf`, svc("ProtectSystem=true")),
  w("demo-.service.d in /run: ProtectSystem=full", "/run/systemd/system/demo-.service.d/x.conf", svc("ProtectSystem=full")),
  w(
    "demo-.service.d in /usr/local/lib: ProtectHome=read-only",
    "/usr/local/lib/systemd/system/demo-.service.d/y.conf",
    svc("ProtectHome=read-only"),
  ),
  w("demo-.service.d in system.control: UMask=0002", "/etc/systemd/system.control/demo-.service.d/50-x.conf", svc("UMask=0002")),
  w("demo-.service.d in /usr/lib: ProtectSystem=full", "/usr/lib/systemd/system/demo-.service.d/zz.conf", svc("ProtectSystem=full")),
  w("pool-.service.d: UMask=0022 for the template pool-x@ (0077)", `${E}/pool-.service.d/x.conf`, svc("UMask=0022")),
  w("pool-.service.d: the template pool-x@ run as root (User=0)", `${E}/pool-.service.d/u.conf`, svc("User=0")),
  w("demo-.service.d/harden.conf masking the vendor's prefix drop-in", `${E}/demo-.service.d/harden.conf`, svc("Restart=always")),
  w(
    "demo-worker.service.d/harden.conf masking the vendor's prefix drop-in",
    `${E}/demo-worker.service.d/harden.conf`,
    svc("Restart=always"),
  ),
  ["demo-.service.d: a link to a laxer file on the host", [{ path: P, after: link("/usr/share/demo/lax.conf") }]],
  w("many-.service.d: a drop-in for more host units than are compared", `${E}/many-.service.d/x.conf`, svc("Restart=always")),
];
const PREFIX_BENIGN: Row[] = [
  w("demo-.service.d: Restart=", P, svc("Restart=on-failure\nRestartSec=5")),
  w("demo-.service.d: Environment=", P, svc("Environment=LANG=C.UTF-8 TZ=UTC")),
  w("demo-.service.d: hardened more", P, svc("ProtectSystem=strict\nPrivateTmp=yes\nMemoryDenyWriteExecute=yes")),
  w("demo-web-.service.d: ProtectSystem=strict (stronger)", `${E}/demo-web-.service.d/x.conf`, svc("ProtectSystem=strict")),
  w("demo-.service.d: UMask=0077 (as demo-worker's)", P, svc("UMask=0077")),
  w(
    "demo-.service.d/harden.conf the vendor's, and more",
    `${E}/demo-.service.d/harden.conf`,
    svc("RestrictSUIDSGID=yes\nLockPersonality=yes\nRestart=always"),
  ),
  w("nomatch-.service.d: ProtectSystem=full (no host unit)", `${E}/nomatch-.service.d/x.conf`, svc("ProtectSystem=full")),
  w("demo-.socket.d: ProtectSystem=full (no demo- socket)", `${E}/demo-.socket.d/x.conf`, svc("ProtectSystem=full")),
];

const TYPE: Row[] = [
  w("service.d in /etc: ProtectSystem=full", `${E}/service.d/x.conf`, svc("ProtectSystem=full")),
  w("service.d in /run: ProtectSystem=full (locked: strict)", "/run/systemd/system/service.d/x.conf", svc("ProtectSystem=full")),
  w("service.d in /usr/lib: UMask=0022", "/usr/lib/systemd/system/service.d/x.conf", svc("UMask=0022")),
  w("service.d in /usr/local/lib: ProtectHome=read-only", "/usr/local/lib/systemd/system/service.d/y.conf", svc("ProtectHome=read-only")),
  w("service.d in /lib: ProtectSystem=yes", "/lib/systemd/system/service.d/y.conf", svc("ProtectSystem=yes")),
  w("service.d in system.control: ProtectHome=read-only", "/etc/systemd/system.control/service.d/y.conf", svc("ProtectHome=read-only")),
  w("service.d in /run: ExecStartPre= from /tmp", "/run/systemd/system/service.d/pre.conf", svc("ExecStartPre=/tmp/x")),
  w("service.d in /usr/lib: Environment=LD_PRELOAD", "/usr/lib/systemd/system/service.d/e.conf", svc("Environment=LD_PRELOAD=/tmp/x.so")),
  w("socket.d in /run: ExecStartPre= from /tmp", "/run/systemd/system/socket.d/pre.conf", "[Socket]\nExecStartPre=/tmp/x\n"),
];
const TYPE_BENIGN: Row[] = [
  w("a drop-in of a unit named service.service", `${E}/service.service.d/x.conf`, svc("Restart=always")),
  w("a drop-in named service.conf", `${E}/web.service.d/service.conf`, svc("TimeoutStopSec=30")),
  w("a prefix drop-in in /run: Restart=", "/run/systemd/system/demo-.service.d/r.conf", svc("Restart=always")),
];

const U = "/etc/systemd/user";
const USER: Row[] = [
  w("a user unit in /etc running /tmp code", `${U}/x.service`, svc("ExecStart=/tmp/x")),
  w("a user unit in /usr/lib running /dev/shm code", "/usr/lib/systemd/user/x.service", svc("ExecStart=/dev/shm/x")),
  w("a user unit's drop-in running a home's code", `${U}/pipewire.service.d/x.conf`, svc("ExecStartPre=/home/agent/x")),
  w("a user unit in /etc running /var/tmp code through sh", `${U}/y.service`, svc("ExecStart=/bin/sh -c /var/tmp/y")),
  w("a user unit in /usr/local/lib: ExecStart= from /tmp", "/usr/local/lib/systemd/user/x.service", svc("ExecStart=/tmp/x")),
];
const USER_BENIGN: Row[] = [w("a user unit in /etc running the system's program", `${U}/sync.service`, svc("ExecStart=/usr/bin/true"))];

const ATTACKS: Array<[string, Row[]]> = [
  ["prefix drop-ins weakening the host's units they apply to", PREFIX],
  ["type-wide drop-ins", TYPE],
  ["user units running code from a user's place", USER],
];
const BENIGN: Array<[string, Row[]]> = [
  ["prefix drop-ins", PREFIX_BENIGN],
  ["type-wide drop-ins", TYPE_BENIGN],
  ["user units", USER_BENIGN],
];

rowSuites("review 45", ATTACKS, BENIGN, { unitRoot: ROOT });
afterAll(() => rmSync(ROOT, { recursive: true, force: true }));

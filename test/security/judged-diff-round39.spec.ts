// Review 39 (judged diff, after review 37): what review 37 left open. A full unit that replaces the vendor's unit of
// the same name (or a drop-in, or the vendor file itself rewritten) and leaves out or weakens a protection the
// vendor's unit sets — both judges read the host's unit it replaces, here a tree made for the test; device, address
// and file-system settings that widen a unit's reach (DevicePolicy=auto, DeviceAllow= of disks or memory,
// IPAddressAllow=any, RestrictFileSystems= emptied); cupsd.conf opening the print system's administration; the
// kernel's core dumps handed to a socket (`@`, `@@`) or written where root runs content; NetworkManager VPN
// connections whose helper lies in a user's place; and template units whose instance name is the code they run.
// Each diff is judged by the real classifier engine and the real concurrence, in process: attacks are refused by
// both (tier 4); the benign look-alikes stay ≤ 3 in both; the last test checks that over every row the judges agree.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll } from "vitest";
import { file, link, type Row, rowSuites, w } from "./judged-diff-harness.js";

// The host's own units, as a vendor installs them: the judges read them under this root.
const ROOT = mkdtempSync(join(tmpdir(), "judged-diff-units-"));
const put = (path: string, text: string) => {
  mkdirSync(dirname(join(ROOT, path)), { recursive: true });
  writeFileSync(join(ROOT, path), text);
};
const DEMO = `[Unit]
Description=demo daemon
[Service]
ExecStart=/usr/sbin/demod --foreground
User=demo
NoNewPrivileges=yes
ProtectSystem=strict
ProtectHome=yes
PrivateTmp=yes
PrivateDevices=yes
ProtectKernelTunables=yes
ProtectProc=invisible
CapabilityBoundingSet=CAP_NET_BIND_SERVICE CAP_CHOWN
SystemCallFilter=@system-service
SystemCallFilter=~@privileged @resources
RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX
ReadWritePaths=/var/lib/demo
DevicePolicy=closed
IPAddressDeny=any
IPAddressAllow=localhost
UMask=0077
[Install]
WantedBy=multi-user.target
`;
const ROOTD = "[Service]\nExecStart=/usr/sbin/rootd\nNoNewPrivileges=yes\nProtectSystem=full\nPrivateTmp=yes\n";
put("/lib/systemd/system/demo.service", DEMO);
put("/usr/lib/systemd/system/rootd.service", ROOTD);
put("/usr/lib/systemd/system/rootd.service.d/harden.conf", "[Service]\nProtectHome=yes\nRestrictSUIDSGID=yes\n");
put(
  "/lib/systemd/system/worker@.service",
  "[Service]\nExecStart=/usr/bin/worker %i\nUser=worker\nNoNewPrivileges=yes\nPrivateDevices=yes\n",
);
/** The vendor's demo unit with one line replaced (or removed, with `to` empty). */
const demo = (from: string, to: string) => {
  if (!DEMO.includes(`${from}\n`)) throw new Error(`no ${from} in the vendor unit`);
  return DEMO.replace(`${from}\n`, to ? `${to}\n` : "");
};
const E = "/etc/systemd/system";
const svc = (body: string) => `[Service]\n${body}\n`;

const REPLACED: Row[] = [
  w("demo.service in /etc without NoNewPrivileges", `${E}/demo.service`, demo("NoNewPrivileges=yes", "")),
  w("demo.service in /etc without ProtectSystem", `${E}/demo.service`, demo("ProtectSystem=strict", "")),
  w("demo.service in /etc: ProtectSystem=full (vendor: strict)", `${E}/demo.service`, demo("ProtectSystem=strict", "ProtectSystem=full")),
  w("demo.service in /etc: ProtectHome=read-only (vendor: yes)", `${E}/demo.service`, demo("ProtectHome=yes", "ProtectHome=read-only")),
  w("demo.service in /etc without User= (root)", `${E}/demo.service`, demo("User=demo", "")),
  w("demo.service in /etc: User=root", `${E}/demo.service`, demo("User=demo", "User=root")),
  w(
    "demo.service in /etc without CapabilityBoundingSet",
    `${E}/demo.service`,
    demo("CapabilityBoundingSet=CAP_NET_BIND_SERVICE CAP_CHOWN", ""),
  ),
  w(
    "demo.service in /etc: CapabilityBoundingSet widened",
    `${E}/demo.service`,
    demo("CapabilityBoundingSet=CAP_NET_BIND_SERVICE CAP_CHOWN", "CapabilityBoundingSet=CAP_NET_BIND_SERVICE CAP_CHOWN CAP_DAC_OVERRIDE"),
  ),
  w("demo.service in /etc without the ~@privileged filter", `${E}/demo.service`, demo("SystemCallFilter=~@privileged @resources", "")),
  w(
    "demo.service in /etc: RestrictAddressFamilies widened",
    `${E}/demo.service`,
    demo("RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX", "RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX AF_PACKET"),
  ),
  w("demo.service in /etc without PrivateDevices", `${E}/demo.service`, demo("PrivateDevices=yes", "")),
  w("demo.service in /etc: DevicePolicy=closed dropped", `${E}/demo.service`, demo("DevicePolicy=closed", "")),
  w("demo.service in /etc: IPAddressAllow=any", `${E}/demo.service`, demo("IPAddressAllow=localhost", "IPAddressAllow=any")),
  w("demo.service in /etc without IPAddressDeny", `${E}/demo.service`, demo("IPAddressDeny=any", "")),
  w("demo.service in /etc: UMask=0022 (vendor: 0077)", `${E}/demo.service`, demo("UMask=0077", "UMask=0022")),
  w("demo.service in /etc: ProtectProc=ptraceable", `${E}/demo.service`, demo("ProtectProc=invisible", "ProtectProc=ptraceable")),
  w("demo.service in /run without NoNewPrivileges", "/run/systemd/system/demo.service", demo("NoNewPrivileges=yes", "")),
  w("demo.service in /usr/local/lib without PrivateTmp", "/usr/local/lib/systemd/system/demo.service", demo("PrivateTmp=yes", "")),
  [
    "the vendor's demo.service itself rewritten without ProtectSystem",
    [
      {
        path: "/lib/systemd/system/demo.service",
        before: file(DEMO),
        after: file(demo("ProtectSystem=strict", "")),
        content: demo("ProtectSystem=strict", ""),
      },
    ],
  ],
  w(
    "rootd.service in /etc without NoNewPrivileges",
    `${E}/rootd.service`,
    "[Service]\nExecStart=/usr/sbin/rootd\nProtectSystem=full\nPrivateTmp=yes\n",
  ),
  w("a drop-in: ProtectSystem=full (vendor: strict)", `${E}/demo.service.d/x.conf`, svc("ProtectSystem=full")),
  w("a drop-in: ProtectHome=read-only (vendor: yes)", `${E}/demo.service.d/x.conf`, svc("ProtectHome=read-only")),
  w("a drop-in: ProtectProc=ptraceable (vendor: invisible)", `${E}/demo.service.d/x.conf`, svc("ProtectProc=ptraceable")),
  w("a drop-in: UMask=0022 (vendor: 0077)", `${E}/demo.service.d/x.conf`, svc("UMask=0022")),
  w("a drop-in: ProtectSystem=yes (vendor: full)", `${E}/rootd.service.d/zz.conf`, svc("ProtectSystem=yes")),
  w("a drop-in of the vendor's drop-in's name, without it", `${E}/rootd.service.d/harden.conf`, svc("Restart=always")),
  w(
    "an instance of the vendor's template, without its hardening",
    `${E}/worker@a.service`,
    "[Service]\nExecStart=/usr/bin/worker a\nUser=worker\n",
  ),
];
const REPLACED_BENIGN: Row[] = [
  w(
    "demo.service in /etc: the vendor's with other options",
    `${E}/demo.service`,
    demo("ExecStart=/usr/sbin/demod --foreground", "ExecStart=/usr/sbin/demod --foreground --verbose"),
  ),
  w(
    "demo.service in /etc: the vendor's, hardened more",
    `${E}/demo.service`,
    demo("ProtectHome=yes", "ProtectHome=yes\nMemoryDenyWriteExecute=yes\nLockPersonality=yes"),
  ),
  w(
    "demo.service in /etc: capabilities narrowed",
    `${E}/demo.service`,
    demo("CapabilityBoundingSet=CAP_NET_BIND_SERVICE CAP_CHOWN", "CapabilityBoundingSet=CAP_NET_BIND_SERVICE"),
  ),
  w(
    "demo.service in /etc: an address family less",
    `${E}/demo.service`,
    demo("RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX", "RestrictAddressFamilies=AF_INET AF_UNIX"),
  ),
  w("demo.service in /etc: DevicePolicy=strict", `${E}/demo.service`, demo("DevicePolicy=closed", "DevicePolicy=strict")),
  w("rootd.service in /etc: the vendor's with Environment=", `${E}/rootd.service`, `${ROOTD}Environment=LANG=C.UTF-8\n`),
  w("a drop-in of demo: Restart=", `${E}/demo.service.d/x.conf`, svc("Restart=always\nRestartSec=5")),
  w("a drop-in of demo: ProtectSystem=strict (as the vendor's)", `${E}/demo.service.d/x.conf`, svc("ProtectSystem=strict")),
  w("a drop-in of rootd: ProtectSystem=strict (stronger)", `${E}/rootd.service.d/zz.conf`, svc("ProtectSystem=strict")),
  ["demo.service in /etc: a link to the vendor's own", [{ path: `${E}/demo.service`, after: link("/lib/systemd/system/demo.service") }]],
  w("a unit no vendor ships", `${E}/mine.service`, "[Service]\nExecStart=/usr/local/bin/mine\n"),
  w(
    "an instance of the template, as the vendor's",
    `${E}/worker@a.service`,
    "[Service]\nExecStart=/usr/bin/worker a\nUser=worker\nNoNewPrivileges=yes\nPrivateDevices=yes\n",
  ),
];

const D = "/etc/systemd/system/nginx.service.d/override.conf";
const REACH: Row[] = [
  w("a drop-in: DevicePolicy=auto", D, svc("DevicePolicy=auto")),
  w("a drop-in: DevicePolicy= (reset: auto)", D, svc("DevicePolicy=")),
  w("a drop-in: DeviceAllow= (emptied)", D, svc("DeviceAllow=")),
  w("a drop-in: DeviceAllow=/dev/sda rw", D, svc("DeviceAllow=/dev/sda rw")),
  w("a drop-in: DeviceAllow=/dev/nvme0n1", D, svc("DeviceAllow=/dev/nvme0n1")),
  w("a drop-in: DeviceAllow=block-sd", D, svc("DeviceAllow=block-sd rwm")),
  w("a drop-in: DeviceAllow=char-mem", D, svc("DeviceAllow=char-mem r")),
  w("a drop-in: DeviceAllow=/dev/mem", D, svc("DeviceAllow=/dev/mem r")),
  w("a drop-in: DeviceAllow=/dev/uinput", D, svc("DeviceAllow=/dev/uinput w")),
  w("a drop-in: RestrictFileSystems= (emptied)", D, svc("RestrictFileSystems=")),
  w("a drop-in: ProcSubset=all", D, svc("ProcSubset=all")),
  w("a drop-in: IPAddressAllow=any", D, svc("IPAddressAllow=any")),
  w("a drop-in: IPAddressAllow=0.0.0.0/0 ::/0", D, svc("IPAddressAllow=0.0.0.0/0 ::/0")),
  w("a unit: DevicePolicy=auto", "/etc/systemd/system/x.service", svc("ExecStart=/usr/bin/true\nDevicePolicy=auto")),
  w("a unit: ProcSubset=all", "/etc/systemd/system/x.service", svc("ExecStart=/usr/bin/true\nProcSubset=all")),
];
const REACH_BENIGN: Row[] = [
  w("a drop-in: NotifyAccess=all", D, svc("NotifyAccess=all")),
  w("a drop-in: Delegate=yes", D, svc("Delegate=yes")),
  w("a drop-in: SystemCallErrorNumber=EPERM", D, svc("SystemCallErrorNumber=EPERM")),
  w("a drop-in: DevicePolicy=closed", D, svc("DevicePolicy=closed")),
  w("a drop-in: DeviceAllow=/dev/ttyUSB0 rw", D, svc("DeviceAllow=/dev/ttyUSB0 rw")),
  w("a drop-in: IPAddressAllow=localhost 10.0.0.0/8", D, svc("IPAddressAllow=localhost 10.0.0.0/8")),
  w("a drop-in: RestrictFileSystems=ext4 tmpfs", D, svc("RestrictFileSystems=ext4 tmpfs")),
  w("a drop-in: PrivateUsers=self", D, svc("PrivateUsers=self")),
];

const CUPSD = "/etc/cups/cupsd.conf";
const admin = (body: string) => `Listen localhost:631\n<Location /admin>\n${body}\n</Location>\n`;
const CUPS_ATTACKS: Row[] = [
  w("cupsd: Listen 0.0.0.0:631", CUPSD, "Listen 0.0.0.0:631\n"),
  w("cupsd: Listen *:631", CUPSD, "Listen *:631\n"),
  w("cupsd: Port 631 (every address)", CUPSD, "Port 631\n"),
  w("cupsd: Listen [::]:631", CUPSD, "Listen [::]:631\n"),
  w("cupsd: Listen on a LAN address", CUPSD, "  listen 192.168.1.10:631\n"),
  w("cupsd: /admin Allow all", CUPSD, admin("  Order allow,deny\n  Allow all")),
  w("cupsd: /admin Allow from all", CUPSD, admin("  Allow from all")),
  w("cupsd: /admin AuthType None", CUPSD, admin("  AuthType None\n  Order allow,deny\n  Allow @LOCAL")),
  w("cupsd: /admin/conf Allow @LOCAL", CUPSD, "<Location /admin/conf>\n  Allow @LOCAL\n</Location>\n"),
  w(
    "cupsd: the add-printer operation with AuthType None",
    CUPSD,
    "<Policy default>\n  <Limit CUPS-Add-Modify-Printer CUPS-Delete-Printer>\n    AuthType None\n    Order deny,allow\n  </Limit>\n</Policy>\n",
  ),
  w(
    "cupsd: the add-printer operation for any valid user",
    CUPSD,
    "<Policy default>\n  <Limit CUPS-Add-Modify-Printer>\n    AuthType Default\n    Require valid-user\n  </Limit>\n</Policy>\n",
  ),
  w("cupsd: DefaultAuthType None", CUPSD, "DefaultAuthType None\n"),
  w("cupsd: SSLListen on every address", CUPSD, "SSLListen 0.0.0.0:443\n"),
  w("cupsd: /admin Satisfy any", CUPSD, admin("  AuthType Default\n  Require user @SYSTEM\n  Satisfy any")),
];
const CUPS_BENIGN: Row[] = [
  w(
    "cupsd: Debian's defaults",
    CUPSD,
    `LogLevel warn
Listen localhost:631
Listen /run/cups/cups.sock
Browsing On
DefaultAuthType Basic
WebInterface Yes
<Location />
  Order allow,deny
</Location>
<Location /admin>
  Order allow,deny
</Location>
<Location /admin/conf>
  AuthType Default
  Require user @SYSTEM
  Order allow,deny
</Location>
<Policy default>
  JobPrivateAccess default
  <Limit Create-Job Print-Job Print-URI Validate-Job>
    Order deny,allow
  </Limit>
  <Limit Send-Document Send-URI Hold-Job Release-Job Restart-Job Purge-Jobs Set-Job-Attributes Cancel-Job>
    Require user @OWNER @SYSTEM
    Order deny,allow
  </Limit>
  <Limit CUPS-Add-Modify-Printer CUPS-Delete-Printer CUPS-Add-Modify-Class CUPS-Delete-Class CUPS-Set-Default>
    AuthType Default
    Require user @SYSTEM
    Order deny,allow
  </Limit>
  <Limit All>
    Order deny,allow
  </Limit>
</Policy>
`,
  ),
  w("cupsd: printing shared on the loopback", CUPSD, "Listen 127.0.0.1:631\nListen [::1]:631\n<Location />\n  Allow @LOCAL\n</Location>\n"),
];

const CORE: Row[] = [
  w("sysctl.d: core_pattern to a socket (@)", "/etc/sysctl.d/50-x.conf", "kernel.core_pattern = @/run/x.sock\n"),
  w("sysctl.d: core_pattern to a socket (@@) in /tmp", "/etc/sysctl.d/50-x.conf", "kernel.core_pattern=@@/tmp/cd.sock\n"),
  w("sysctl.d: core_pattern with slashes in the key", "/usr/lib/sysctl.d/50-x.conf", "kernel/core_pattern = @/tmp/s\n"),
  w("sysctl.conf: core_pattern into cron.d", "/etc/sysctl.conf", "kernel.core_pattern = /etc/cron.d/core.%p\n"),
  w("tmpfiles: core_pattern to a socket", "/etc/tmpfiles.d/x.conf", "w /proc/sys/kernel/core_pattern - - - - @/tmp/s\n"),
];

const NM = "/etc/NetworkManager/system-connections/work.nmconnection";
const vpn = (data: string) =>
  `[connection]\nid=work\ntype=vpn\n[vpn]\nservice-type=org.freedesktop.NetworkManager.openconnect\ngateway=vpn.example.com\n${data}\n`;
const NM_ATTACKS: Row[] = [
  w("NM: openconnect's CSD wrapper in /tmp", NM, vpn("enable_csd_trojan=yes\ncsd_wrapper=/tmp/csd.sh")),
  w("NM: a CSD wrapper in a home", NM, vpn("csd_wrapper=/home/agent/csd")),
  w("NM: a plugin in /var/tmp", NM, vpn("plugin=/var/tmp/x.so")),
  w("NM: a CSD wrapper by a relative name", NM, vpn("csd_wrapper=csd.sh")),
  w("NM: a script in /run's connections", "/run/NetworkManager/system-connections/x.nmconnection", vpn("script=/dev/shm/x")),
  w("NM: a helper in the vendor's connections", "/usr/lib/NetworkManager/system-connections/x", vpn("helper = /tmp/h")),
];
const NM_BENIGN: Row[] = [
  w("NM: openvpn with its CA in /etc", NM, vpn("ca=/etc/openvpn/ca.crt\nconnection-type=tls\nremote=vpn.example.com")),
  w("NM: a CSD wrapper from the package", NM, vpn("enable_csd_trojan=yes\ncsd_wrapper=/usr/libexec/openconnect/csd-post.sh")),
  w("NM: a Wi-Fi connection", NM, "[connection]\nid=home\ntype=wifi\n[wifi]\nssid=home\n[wifi-security]\nkey-mgmt=wpa-psk\npsk=secret\n"),
];

const T = "/etc/systemd/system/run@.service";
const TEMPLATES: Row[] = [
  w("a template running its instance as shell code", T, svc('ExecStart=/bin/sh -c "%I"')),
  w("a template running its instance as bash code", T, svc("ExecStart=/usr/bin/bash -c %i")),
  w("a template whose instance is the program", T, svc("ExecStart=%I")),
  w("a template whose instance is the program, through env", T, svc("ExecStart=/usr/bin/env %I --now")),
  w("a template running its instance as Python", T, svc("ExecStart=/usr/bin/python3 -c '%I'")),
  w("a template running the script its instance names", T, svc("ExecStart=/bin/sh %f")),
  w(
    "a template enabled by default for an instance in /tmp",
    "/etc/systemd/system/cat@.service",
    "[Service]\nExecStart=/usr/bin/install %f /usr/local/bin/x\n[Install]\nDefaultInstance=-tmp-x\nWantedBy=multi-user.target\n",
  ),
  [
    "an instance in /tmp enabled",
    [{ path: "/etc/systemd/system/multi-user.target.wants/run@-tmp-x.service", after: link("/etc/systemd/system/run@.service") }],
  ],
];
const TEMPLATES_BENIGN: Row[] = [
  w("a template reading its instance's file in /etc", "/etc/systemd/system/show@.service", svc("ExecStart=/usr/bin/cat /etc/app/%i.conf")),
  w(
    "a template reading its instance's configuration",
    "/etc/systemd/system/vpn@.service",
    svc("ExecStart=/usr/sbin/openvpn --config /etc/openvpn/%i.conf"),
  ),
  w("a template passing its instance as an argument", "/etc/systemd/system/job@.service", svc("ExecStart=/usr/local/bin/job --name %i")),
];

const ATTACKS: Array<[string, Row[]]> = [
  ["a vendor unit replaced or extended, its protection left out", REPLACED],
  ["a unit's reach widened", REACH],
  ["cupsd's administration opened", CUPS_ATTACKS],
  ["core dumps handed elsewhere", CORE],
  ["VPN helpers in users' places", NM_ATTACKS],
  ["templates whose instance is code", TEMPLATES],
];
const BENIGN: Array<[string, Row[]]> = [
  ["vendor units", REPLACED_BENIGN],
  ["a unit's reach", REACH_BENIGN],
  ["cupsd", CUPS_BENIGN],
  ["NetworkManager", NM_BENIGN],
  ["templates", TEMPLATES_BENIGN],
];

rowSuites("review 39", ATTACKS, BENIGN, { unitRoot: ROOT });
afterAll(() => rmSync(ROOT, { recursive: true, force: true }));

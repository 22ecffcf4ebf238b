// Programs whose effect is on the machine as a whole: disks and
// filesystems, power, accounts and credentials, the security layers,
// packages, processes, snapshots, and agent-sudo itself.
import type { Handler } from "./args.js";
import { finding } from "./types.js";

const refuse =
  (reason: string): Handler =>
  () =>
    finding(4, reason);

/** Packages the host cannot boot, log in or manage packages without. */
const ESSENTIAL_PACKAGE =
  /^(systemd|systemd-sysv|libc6|libc-bin|linux-image.*|grub.*|shim.*|openssh-server|sudo|apt|dpkg|coreutils|bash|dash|login|passwd|util-linux|mount|base-files|init|udev|libpam.*|e2fsprogs|btrfs-progs|cryptsetup.*|lvm2|docker.*|containerd.*|postgresql.*|vault|apparmor|network-manager|netplan.*|ifupdown)(:.*)?$/;

/** Processes whose death takes the host, a login path or agent-sudo with it. */
const VITAL_PROCESS =
  /^(systemd|init|sshd|dbus-daemon|systemd-journald|systemd-logind|dockerd|containerd|postgres|vault|node|agent-sudo.*|NetworkManager|systemd-networkd)$/;

const packages: Handler = (a) => {
  const verb = a.sub;
  if (a.has("--allow-remove-essential") || [...a.flags].some((f) => f.startsWith("--force")))
    return finding(4, "forces the package manager past its safety checks");
  if (["list", "show", "search", "policy", "depends", "rdepends", "showpkg", "madison", "changelog", "download", "source"].includes(verb))
    return finding(0, "queries packages");
  if (["remove", "purge", "autoremove", "autopurge"].includes(verb)) {
    const essential = a.operands.slice(1).find((w) => ESSENTIAL_PACKAGE.test(w.text) || w.dynamic || w.glob);
    if (essential) return finding(4, `removes essential or unnamed package ${essential.text}`);
    return finding(2, "removes packages");
  }
  if (verb === "dist-upgrade" || verb === "full-upgrade") return finding(3, "upgrades the whole distribution");
  return finding(2, `package operation ${verb || "(none)"}`);
};

const dpkg: Handler = (a) => {
  if ([...a.flags].some((f) => f.startsWith("--force"))) return finding(4, "forces dpkg past its safety checks");
  if (a.has("-r", "-P", "--remove", "--purge")) {
    const essential = a.operands.find((w) => ESSENTIAL_PACKAGE.test(w.text) || w.dynamic || w.glob);
    if (essential) return finding(4, `removes essential or unnamed package ${essential.text}`);
    return finding(2, "removes packages");
  }
  if (a.has("-i", "--install", "--configure", "--unpack")) return finding(2, "installs packages");
  return finding(0, "queries packages");
};

const kill: Handler = (a) => {
  for (const w of a.operands) {
    if (w.dynamic) return finding(4, "signals a process only known at run time");
    if (w.text === "1" || w.text === "-1" || w.text === "0") return finding(4, `signals ${w.text === "1" ? "init" : "every process"}`);
  }
  if (a.has("-1")) return finding(4, "signals every process");
  return finding(3, "signals processes");
};

const killByName: Handler = (a) => {
  if (a.has("-u", "--user")) return finding(4, "kills by user: every process of that user");
  const target = a.operands.find((w) => w.dynamic || w.glob || VITAL_PROCESS.test(w.text) || /^[.^]|\.\*|^\.$/.test(w.text));
  if (target) return finding(4, `kills vital, unnamed or pattern-matched processes (${target.text})`);
  return finding(3, "kills processes by name");
};

const cryptsetup: Handler = (a) =>
  ["luksFormat", "erase", "luksErase", "luksKillSlot", "luksRemoveKey", "reencrypt", "luksAddKey", "luksChangeKey"].includes(a.sub)
    ? finding(4, `cryptsetup ${a.sub} destroys or re-keys encrypted storage`)
    : finding(3, `cryptsetup ${a.sub}`);

const partitioner: Handler = (a) =>
  a.has("-l", "--list", "-p", "--print") || a.words.some((w) => w.text === "print")
    ? finding(0, "lists partitions")
    : finding(4, "changes partition tables");

const volume =
  (destroyVerbs: string[]): Handler =>
  (a) =>
    destroyVerbs.includes(a.sub) || a.words.some((w) => destroyVerbs.includes(w.text))
      ? finding(4, `destroys a volume, pool or filesystem (${a.words.map((w) => w.text).join(" ")})`)
      : finding(3, "changes volumes");

const mount: Handler = (a) => {
  if (a.operands.length === 0 && !a.has("-a", "--all")) return finding(0, "lists mounts");
  const opts = [...(a.values.get("-o") ?? [])].join(",");
  if (/remount/.test(opts) && a.operands.some((w) => w.text === "/")) return finding(4, "remounts the root filesystem");
  return finding(3, "mounts a filesystem");
};

const umount: Handler = (a) =>
  a.has("-a", "--all") || a.operands.some((w) => /^\/(boot|usr|var|etc|home)?$/.test(w.text) || w.dynamic)
    ? finding(4, "unmounts a filesystem the system runs from")
    : finding(3, "unmounts a filesystem");

export const SYSTEM_PROGRAMS: Record<string, Handler> = {
  // Disks and filesystems.
  mkfs: refuse("makes a filesystem (destroys what was there)"),
  mke2fs: refuse("makes a filesystem (destroys what was there)"),
  mkswap: refuse("formats swap over a device"),
  wipefs: refuse("wipes filesystem signatures"),
  blkdiscard: refuse("discards every block of a device"),
  fdisk: partitioner,
  sfdisk: partitioner,
  cfdisk: partitioner,
  gdisk: partitioner,
  sgdisk: partitioner,
  parted: partitioner,
  cryptsetup,
  pvremove: refuse("removes an LVM physical volume"),
  vgremove: refuse("removes an LVM volume group"),
  lvremove: refuse("removes an LVM logical volume"),
  lvreduce: refuse("shrinks a logical volume (data loss)"),
  zpool: volume(["destroy", "labelclear", "remove", "detach", "offline"]),
  zfs: volume(["destroy", "rollback"]),
  btrfs: volume(["delete", "remove", "resize", "rescue", "zero-log"]),
  mdadm: (a) =>
    a.has("--zero-superblock", "--stop", "-S", "--remove", "--fail") ? finding(4, "dismantles a RAID array") : finding(3, "mdadm"),
  hdparm: (a) =>
    [...a.flags].some((f) => f.startsWith("--security") || f === "--trim-sector-ranges")
      ? finding(4, "erases a disk")
      : finding(3, "hdparm"),
  nvme: (a) =>
    ["format", "sanitize", "delete-ns", "detach-ns"].includes(a.sub) ? finding(4, `nvme ${a.sub} erases a disk`) : finding(0, "nvme query"),
  mount,
  umount,
  swapoff: (a) => (a.has("-a", "--all") ? finding(3, "turns off all swap") : finding(3, "turns off swap")),
  // Power.
  shutdown: refuse("shuts the host down"),
  reboot: refuse("reboots the host"),
  poweroff: refuse("powers the host off"),
  halt: refuse("halts the host"),
  kexec: refuse("replaces the running kernel"),
  init: (a) => (/^[0-6sS]$/.test(a.sub) ? finding(4, "changes the runlevel") : finding(3, "init")),
  telinit: refuse("changes the runlevel"),
  // Accounts and credentials.
  userdel: refuse("deletes an account"),
  deluser: refuse("deletes an account"),
  groupdel: refuse("deletes a group"),
  passwd: refuse("changes a password or locks an account"),
  chpasswd: refuse("changes passwords"),
  chage: refuse("changes password ageing"),
  visudo: refuse("edits sudoers"),
  vipw: refuse("edits the account database"),
  vigr: refuse("edits the group database"),
  pwck: (a) => (a.has("-r") ? finding(0, "checks accounts") : finding(4, "may rewrite the account database")),
  usermod: (a) => {
    const groups = [...(a.values.get("-G") ?? []), ...(a.values.get("--groups") ?? [])].join(",");
    if (/(^|,)(sudo|wheel|root|adm|docker|lxd|incus|disk|shadow|agent-sudo[^,]*)(,|$)/.test(groups))
      return finding(4, `grants a privileged group (${groups})`);
    if (
      a.has(
        "-p",
        "--password",
        "-L",
        "--lock",
        "-U",
        "--unlock",
        "-o",
        "--non-unique",
        "-u",
        "--uid",
        "-s",
        "--shell",
        "-e",
        "--expiredate",
      )
    )
      return finding(4, "changes credentials or identity of an account");
    if (a.operands.some((w) => w.text === "root")) return finding(4, "changes the root account");
    return finding(2, "changes an account");
  },
  gpasswd: (a) =>
    a.words.some((w) => /^(sudo|wheel|root|adm|docker|lxd|incus|disk|shadow)$/.test(w.text))
      ? finding(4, "changes a privileged group")
      : finding(2, "changes a group"),
  useradd: (a) =>
    a.has("-o", "--non-unique") || (a.values.get("-u") ?? []).includes("0")
      ? finding(4, "creates a second root")
      : finding(2, "creates an account"),
  adduser: () => finding(2, "creates an account"),
  groupadd: () => finding(2, "creates a group"),
  // Security layers.
  "aa-disable": refuse("disables an AppArmor profile"),
  "aa-complain": refuse("puts an AppArmor profile in complain mode"),
  "aa-teardown": refuse("unloads every AppArmor profile"),
  apparmor_parser: (a) => (a.has("-R", "--remove") ? finding(4, "unloads an AppArmor profile") : finding(3, "loads AppArmor profiles")),
  setenforce: (a) => (a.sub === "0" || /permissive/i.test(a.sub) ? finding(4, "turns SELinux enforcement off") : finding(3, "setenforce")),
  auditctl: (a) => (a.has("-D", "-e") ? finding(4, "clears or disables the audit rules") : finding(3, "auditctl")),
  // Packages.
  apt: packages,
  "apt-get": packages,
  aptitude: packages,
  dpkg,
  snap: (a) => (a.sub === "remove" ? finding(3, "removes a snap") : finding(2, `snap ${a.sub}`)),
  // Processes and kernel.
  kill,
  pkill: killByName,
  killall: killByName,
  killall5: refuse("signals every process"),
  rmmod: () => finding(3, "unloads a kernel module"),
  insmod: refuse("loads unsigned kernel code"),
  modprobe: (a) => (a.has("-r", "--remove") ? finding(3, "unloads a kernel module") : finding(3, "loads a kernel module")),
  sysctl: (a) =>
    a.has("-w", "-p", "--write", "--load", "--system") || a.operands.some((w) => w.text.includes("="))
      ? finding(3, "changes kernel parameters")
      : finding(0, "reads kernel parameters"),
  crontab: (a) =>
    a.has("-r")
      ? finding(4, "deletes every cron job of the user")
      : a.has("-l")
        ? finding(0, "lists cron jobs")
        : finding(2, "replaces cron jobs"),
  // Snapshots: taking one is fine; restoring or deleting them is a person's act.
  timeshift: (a) => {
    if (a.has("--restore", "--delete-all", "--delete")) return finding(4, "restores or deletes system snapshots (a person's act)");
    if (a.has("--create", "--check")) return finding(1, "takes a system snapshot");
    return finding(0, "lists snapshots");
  },
  // agent-sudo itself: the autonomous system never changes its own guard.
  "agent-sudo": (a) =>
    a.sub === "status" || (a.sub === "breaker" && a.operands[1]?.text === "status") || a.sub === "help"
      ? finding(0, "agent-sudo status")
      : finding(4, "operates agent-sudo itself (rules, breaker, keys): a person's act"),
};

/** Options with values, for the programs above whose parse needs them. */
export const SYSTEM_VALUED: Record<string, string[]> = {
  usermod: [
    "-G",
    "--groups",
    "-g",
    "--gid",
    "-d",
    "--home",
    "-l",
    "--login",
    "-c",
    "--comment",
    "-p",
    "--password",
    "-s",
    "--shell",
    "-u",
    "--uid",
    "-e",
    "--expiredate",
  ],
  useradd: ["-G", "--groups", "-g", "--gid", "-d", "--home-dir", "-c", "--comment", "-s", "--shell", "-u", "--uid", "-p", "--password"],
  mount: ["-o", "--options", "-t", "--types"],
  kill: ["-s", "--signal", "-n"],
  pkill: ["-u", "--euid", "-U", "--uid", "-s", "--signal", "-g", "-G", "-P", "-t"],
  killall: ["-u", "--user", "-s", "--signal", "-o", "-y"],
  dpkg: ["--admindir", "--root", "--instdir"],
  apt: ["-o", "-t", "-c"],
  "apt-get": ["-o", "-t", "-c"],
};

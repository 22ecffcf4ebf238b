// Both judges (the classifier's runs-later content, the concurrence's unit files) read a systemd setting the same way:
// whether it sets one of the unit's own protections to its weak value. One table, one rule (it was two identical copies).
import { posix } from "node:path";

/** Unit hardening settings that are booleans (or a boolean or a mode): off, or empty (reset to the default, off), weakens. */
const HARDENING_FLAGS =
  /^(NoNewPrivileges|ProtectSystem|ProtectHome|PrivateTmp|PrivateDevices|PrivateNetwork|PrivateUsers|PrivateIPC|PrivateMounts|DynamicUser|ProtectKernelTunables|ProtectKernelModules|ProtectKernelLogs|ProtectControlGroups|ProtectClock|ProtectHostname|RestrictSUIDSGID|RestrictRealtime|RestrictNamespaces|LockPersonality|MemoryDenyWriteExecute|RemoveIPC)$/;
/** Unit hardening lists: an empty value resets them (no filter, every capability, every path again). */
const HARDENING_LISTS =
  /^(SystemCallFilter|SystemCallArchitectures|RestrictAddressFamilies|CapabilityBoundingSet|InaccessiblePaths|InaccessibleDirectories|ReadOnlyPaths|ReadOnlyDirectories|NoExecPaths|IPAddressDeny|DeviceAllow|RestrictFileSystems)$/;
/** Capabilities that give a unit's programs no way to root's files, processes or the kernel. */
const MINOR_CAPABILITY =
  /^(cap_)?(net_bind_service|net_broadcast|ipc_lock|wake_alarm|block_suspend|sys_nice|sys_resource|sys_time|audit_write)$/i;
/** Devices that hold or reach root's data and sessions: disks, memory, the CPU's registers, input, consoles (DeviceAllow=). */
const ROOTS_DEVICE =
  /^(block-|char-(mem|misc|input|tty|vcs|sg|bsg|nvme|msr)$|\/dev\/(\*|mem|kmem|port|sd|hd|vd|xvd|nvme|mmcblk|dm-|md|loop|mapper\/|disk\/|sg|bsg|uinput|input\/|console|tty[0-9]|vcs|cpu\/))/;
/** An address range that is all or most of the network (IPAddressAllow=): what IPAddressDeny= shut out, let in again. */
const EVERY_ADDRESS = (a: string): boolean => {
  const bits = /\/(\d+)$/.exec(a)?.[1];
  return a === "any" || (bits !== undefined && Number(bits) < (a.includes(":") ? 7 : 8));
};
/** Groups whose members read or write what root does (devices, shadow, the container daemon, sudo, the kernel's memory). */
const ROOTS_GROUP = /^(root|0|disk|shadow|docker|sudo|wheel|kmem|adm|lxd|libvirt|systemd-journal)$/;
/** Places a unit given write access to makes it root of the system (the tree itself, or where later code and trust live). */
const SYSTEM_TREE =
  /^\/(|etc|usr|boot|root|bin|sbin|lib|lib32|lib64|libx32|var|run|srv|opt|home|proc|sys|dev)$|^\/(usr|boot|root|bin|sbin|lib|lib32|lib64|proc|sys|dev|var\/spool\/cron|etc\/(sudoers|sudoers\.d|systemd|cron[^/]*|pam\.d|security|ssh|passwd|shadow|group|gshadow|ld\.so[^/]*|profile|profile\.d|bash\.bashrc|environment|init\.d|rc[^/]*\.d|rc\.local|modprobe\.d|modules-load\.d|udev|polkit-1|apt|update-motd\.d|logrotate[^/]*|agent-sudo))(\/|$)/;

/**
 * A unit (or drop-in) setting one of its security properties to the weak value — NoNewPrivileges=no, ProtectSystem=no,
 * an emptied SystemCallFilter=, AmbientCapabilities=CAP_SYS_ADMIN, ReadWritePaths=/etc, PAMName=, and in a drop-in
 * User=root: the judges do not see the unit it changes, so the weak value itself is what a person decides on.
 */
export function unitWeakening(key: string, raw: string, dropIn: boolean): string | null {
  const value = raw.replace(/^(["'])(.*)\1$/, "$2").trim();
  const words = value.split(/\s+/).filter(Boolean);
  if (HARDENING_FLAGS.test(key) && /^(0|no|n|false|f|off|)$/i.test(value)) return "turns the protection off";
  if (key === "ProtectProc" && /^default$/i.test(value)) return "shows the unit every process";
  if (key === "ProcSubset" && /^all$/i.test(value)) return "shows the unit all of /proc";
  if (key === "DevicePolicy" && /^(auto|)$/i.test(value)) return "lets the unit open every device";
  if (dropIn && key === "DeviceAllow" && ROOTS_DEVICE.test(words[0] ?? "") && /[rw]/.test(words[1] ?? "rwm"))
    return "lets the unit open disks, memory, input or consoles";
  if (dropIn && key === "IPAddressAllow" && words.some(EVERY_ADDRESS)) return "lets the unit reach the addresses IPAddressDeny= shut out";
  if (HARDENING_LISTS.test(key) && value === "") return "empties the list, lifting the restriction";
  if (key === "AmbientCapabilities" && !value.startsWith("~") && words.some((c) => !MINOR_CAPABILITY.test(c)))
    return "hands the unit's programs a capability that leads to root";
  if (dropIn && key === "CapabilityBoundingSet" && !value.startsWith("~") && words.some((c) => !MINOR_CAPABILITY.test(c)))
    return "lets the unit's programs keep a capability that leads to root";
  if (
    dropIn &&
    key === "SystemCallFilter" &&
    !value.startsWith("~") &&
    words.some((c) => /^@(privileged|mount|module|raw-io|reboot|swap|debug|cpu-emulation|obsolete|clock)$/.test(c))
  )
    return "allows the system calls a root exploit needs";
  if (
    /^ReadWrite(Paths|Directories)$/.test(key) &&
    words.some((p) => SYSTEM_TREE.test(posix.normalize(`/${p.replace(/^[-+]+/, "").replace(/^\/+/, "")}`).replace(/(.)\/$/, "$1")))
  )
    return "lets the unit write the system's own files";
  if (key === "PAMName" && value !== "") return "opens a PAM session: its stack runs, and sets up the user's environment";
  if ((key === "SecureBits" && /keep-caps|no-setuid-fixup/.test(value)) || (key === "KeyringMode" && /^shared$/i.test(value)))
    return "keeps root's privileges or keys across what would drop them";
  if (dropIn && (key === "User" || key === "Group") && (value === "" || ROOTS_GROUP.test(value)))
    return `runs the unit's programs as ${key === "User" ? "user" : "group"} ${value || "root"}`;
  if (dropIn && key === "SupplementaryGroups" && words.some((g) => ROOTS_GROUP.test(g))) return "adds a group with root's reach";
  return null;
}

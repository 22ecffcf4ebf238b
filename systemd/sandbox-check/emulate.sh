#!/bin/bash
# Approximates the sandbox unit's execution environment without PID 1:
# namespaces (PrivateMounts/PrivateNetwork/PrivateIPC/ProtectHostname),
# ProtectSystem=strict + ReadWritePaths= + InaccessiblePaths=, the Protect*
# switches selected by env (PKT PKL PKM PCG PP PD PH PT = 1), then
# setpriv (CapabilityBoundingSet=, AmbientCapabilities=, NoNewPrivileges=) and
# a seccomp allow-list (SystemCallFilter=, SystemCallErrorNumber=EPERM).
# Usage: CAPS=+sys_admin,... SECCOMP=./seccomp-allow RW="a b" [SKIP=/some/mount] emulate.sh CMD...
set -euo pipefail
if [ -z "${EMU_INNER:-}" ]; then
  exec env EMU_INNER=1 unshare --mount --propagation slave --ipc --uts --net -- "$0" "$@"
fi
mount() { command mount -n "$@"; }
skip() { case "$1" in /proc|/proc/*|/sys|/sys/*|/dev|/dev/*|${SKIP:-/nonexistent}*) return 0;; esac; return 1; }
# ReadWritePaths: bind onto themselves first.
for p in ${RW:-}; do mount --bind "$p" "$p"; done
isrw() { for p in ${RW:-}; do case "$1" in "$p"|"$p"/*) return 0;; esac; done; return 1; }
# ProtectSystem=strict: every mount read-only but the API file systems and ReadWritePaths.
findmnt -rn -o TARGET | awk '!seen[$0]++' | while read -r t; do
  t=$(printf '%b' "${t//\\x/\\x}")
  skip "$t" && continue
  isrw "$t" && continue
  mount -o remount,bind,ro "$t" 2>/dev/null || echo "emulate: ro remount of $t failed" >&2
done
# The unit's InaccessiblePaths (files here).
for p in ${IA:-}; do [ -e "$p" ] && mount --bind -o ro /dev/null "$p" 2>/dev/null || true; done
if [ "${PP:-}" = 1 ]; then mount -t proc -o nosuid,nodev,noexec,hidepid=invisible proc /proc; fi
if [ "${PKT:-}" = 1 ]; then
  for p in /proc/sys /proc/sysrq-trigger /proc/latency_stats /proc/acpi /proc/timer_stats /proc/asound /proc/bus /proc/fs /proc/irq /proc/scsi; do
    [ -e "$p" ] && { mount --bind "$p" "$p" && mount -o remount,bind,ro "$p"; } || true
  done
  mount --rbind /sys /sys && mount -o remount,bind,ro /sys
fi
if [ "${PKL:-}" = 1 ]; then for p in /proc/kmsg /dev/kmsg; do [ -e "$p" ] && mount --bind /dev/null "$p" && mount -o remount,bind,ro "$p" || true; done; fi
if [ "${PKM:-}" = 1 ]; then for p in /lib/modules /usr/lib/modules; do [ -d "$p" ] && mount -t tmpfs -o ro,mode=000 none "$p" || true; done; fi
if [ "${PCG:-}" = 1 ]; then mount -o remount,bind,ro /sys/fs/cgroup 2>/dev/null || mount --bind -o ro /sys/fs/cgroup /sys/fs/cgroup; fi
if [ "${PD:-}" = 1 ]; then
  d=$(mktemp -d /dev/shm/emu-dev.XXXX)
  mount -t tmpfs -o mode=755,nosuid,noexec tmpfs "$d"
  for n in null zero full random urandom tty; do touch "$d/$n"; mount --bind "/dev/$n" "$d/$n"; done
  mkdir "$d/pts" "$d/shm"; mount --bind /dev/pts "$d/pts"; mount -t tmpfs -o nosuid,nodev tmpfs "$d/shm"
  ln -s /proc/self/fd "$d/fd"; ln -s pts/ptmx "$d/ptmx"
  mount --move "$d" /dev
fi
for p in ${RW_LATE:-}; do mount --bind "$p" "$p"; mount -o remount,bind,rw "$p"; done
if [ "${PH:-}" = 1 ]; then for p in /home /root /run/user; do [ -d "$p" ] && mount -t tmpfs -o ro,mode=000 none "$p" || true; done; fi
exec setpriv --bounding-set="-all,${CAPS}" --inh-caps=-all --ambient-caps=-all --no-new-privs -- ${SECCOMP:-} "$@"

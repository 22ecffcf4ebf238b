#!/usr/bin/env bash
# build-sandbox.sh <primary|server-01> — (re)build the sandbox mirror of a
# host from its inventory (`agent-sudo inventory > host.json`, taken on that
# host) and its rebuild manifest (gaps recorded by failed trials, one
# "kind name" per line: package, user, group, path, command).
#
#   --driver incus    (default) an Incus container sandbox-<host> from
#                     images:debian/13, 2 vCPU / 2 GiB / 10 GiB, NAT bridge,
#                     with a baseline snapshot the sandbox restores per trial
#   --driver overlay  a debootstrap root used as the overlay driver's lower
#                     layer (set "mirrors": {"<host>": ROOT} in sandbox.json)
#   --inventory FILE  default $AGENT_SUDO_HOME/state/sandbox/<host>.json
#   --manifest FILE   default $AGENT_SUDO_HOME/state/sandbox/<host>.gaps
#   --root DIR        overlay only; default /var/lib/agent-sudo/mirrors/<host>
#   --dry-run         print what would run, change nothing
#
# Needs jq; incus (Incus driver) or debootstrap (overlay driver). The mirror
# gets the host's packages, users, groups and directory skeleton — never its
# data or secrets (seed D1). Command gaps are reported, not guessed at.
# The inner `sh -c '...'` scripts take their values as positional arguments
# ("$1"…), never by interpolation: single quotes are the point.
# shellcheck disable=SC2016
set -euo pipefail

usage() { sed -n '2,20s/^# \{0,1\}//p' "$0" >&2; exit 2; }

host="${1:-}"
case "$host" in primary|server-01) shift ;; *) usage ;; esac

home="${AGENT_SUDO_HOME:-/var/lib/agent-sudo}"
driver=incus
inventory="$home/state/sandbox/$host.json"
manifest="$home/state/sandbox/$host.gaps"
root="/var/lib/agent-sudo/mirrors/$host"
dry=0
while [ $# -gt 0 ]; do
  case "$1" in
    --driver) driver="${2:-}"; shift 2 ;;
    --inventory) inventory="${2:-}"; shift 2 ;;
    --manifest) manifest="${2:-}"; shift 2 ;;
    --root) root="${2:-}"; shift 2 ;;
    --dry-run) dry=1; shift ;;
    *) usage ;;
  esac
done
case "$driver" in incus|overlay) ;; *) usage ;; esac

say() { printf 'build-sandbox: %s\n' "$*" >&2; }
run() {
  if [ "$dry" = 1 ]; then printf '+'; printf ' %q' "$@"; printf '\n'; else "$@"; fi
}

command -v jq >/dev/null || { say "jq is required"; exit 1; }
[ -r "$inventory" ] || { say "no inventory at $inventory (run 'agent-sudo inventory > host.json' on $host)"; exit 1; }

instance="sandbox-$host"
mirror_state=/var/lib/agent-sudo-mirror

# in_mirror CMD...: run a command inside the mirror being built.
in_mirror() {
  if [ "$driver" = incus ]; then run incus exec "$instance" -- "$@"; else run chroot "$root" "$@"; fi
}

mapfile -t packages < <(jq -r '.packages[] | select(.state == "install") | .name' "$inventory")
gap_lines=()
if [ -r "$manifest" ]; then
  mapfile -t gap_lines < <(grep -E '^(package|user|group|path|command) [^[:space:]]+$' "$manifest" || true)
fi
for line in "${gap_lines[@]}"; do
  kind="${line%% *}"; name="${line#* }"
  case "$kind" in
    package) packages+=("$name") ;;
    command) say "gap: command $name (no package is guessed; add it to the inventory by hand)" ;;
  esac
done

if [ "$driver" = incus ]; then
  command -v incus >/dev/null || [ "$dry" = 1 ] || { say "incus is not installed"; exit 1; }
  if [ "$dry" = 0 ] && incus info "$instance" >/dev/null 2>&1; then
    say "replacing $instance"
    run incus delete --force "$instance"
  fi
  run incus launch images:debian/13 "$instance" \
    -c limits.cpu=2 -c limits.memory=2GiB -d root,size=10GiB -n incusbr0
  in_mirror sh -c 'until systemctl is-system-running --quiet 2>/dev/null || [ "$(systemctl is-system-running 2>/dev/null)" = degraded ]; do sleep 1; done'
else
  command -v debootstrap >/dev/null || [ "$dry" = 1 ] || { say "debootstrap is not installed"; exit 1; }
  if [ -e "$root" ]; then
    say "replacing $root"
    run rm -rf --one-file-system "$root"
  fi
  run mkdir -p "$(dirname "$root")"
  run debootstrap --variant=minbase trixie "$root" http://deb.debian.org/debian
fi

in_mirror apt-get update -q
# Packages the mirror's archive does not have (local builds, other repos) are
# skipped one by one rather than failing the whole build.
for pkg in "${packages[@]}"; do
  in_mirror env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$pkg" \
    || say "package $pkg: not installable in the mirror"
done

# Groups, then users, with the host's ids (system accounts already present are kept).
while IFS=$'\t' read -r name gid; do
  in_mirror sh -c 'getent group "$1" >/dev/null || groupadd --gid "$2" "$1"' sh "$name" "$gid" || say "group $name: not created"
done < <(jq -r '.groups[] | [.name, (.gid | tostring)] | @tsv' "$inventory")
while IFS=$'\t' read -r name uid gid home shell; do
  in_mirror sh -c 'id "$1" >/dev/null 2>&1 || useradd --no-create-home --uid "$2" --gid "$3" --home-dir "$4" --shell "$5" "$1"' \
    sh "$name" "$uid" "$gid" "$home" "$shell" || say "user $name: not created"
done < <(jq -r '.users[] | [.name, (.uid | tostring), (.gid | tostring), .home, .shell] | @tsv' "$inventory")
while IFS=$'\t' read -r path mode owner group; do
  in_mirror sh -c 'mkdir -p "$1" && chmod "$2" "$1" && chown "$3:$4" "$1"' sh "$path" "$mode" "$owner" "$group" || say "directory $path: not created"
done < <(jq -r '.directories[] | [.path, .mode, (.owner | tostring), (.group | tostring)] | @tsv' "$inventory")

for line in "${gap_lines[@]}"; do
  kind="${line%% *}"; name="${line#* }"
  case "$kind" in
    user) in_mirror sh -c 'id "$1" >/dev/null 2>&1 || useradd --no-create-home --shell /usr/sbin/nologin "$1"' sh "$name" ;;
    group) in_mirror sh -c 'getent group "$1" >/dev/null || groupadd "$1"' sh "$name" ;;
    # A missing path gets its directory structure, never invented content.
    path) in_mirror mkdir -p "$(dirname "$name")" ;;
  esac
done

if [ "$driver" = incus ]; then
  # The file list trials are compared against (services/sandbox/incus.ts BASELINE_SCRIPT).
  in_mirror sh -c "mkdir -p $mirror_state && find / -xdev \\( -path /proc -o -path /sys -o -path /dev -o -path /run -o -path /tmp -o -path $mirror_state \\) -prune -o -print | LC_ALL=C sort > $mirror_state/baseline.list"
  run incus snapshot create "$instance" baseline --reuse
  say "$instance ready with snapshot baseline"
else
  say "$root ready: set \"mirrors\": {\"$host\": \"$root\"} in $home/sandbox.json"
fi

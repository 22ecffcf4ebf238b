#!/bin/bash
# Re-runs the check systemd/README.md describes ("How the sandbox unit was
# checked"): the sandbox's own tests (npx vitest run test/sandbox: the real
# launcher, and dist/services/sandbox/main.js started as root) inside an
# approximation of agent-sudo-sandbox.service — its namespaces, ProtectSystem=
# strict + ReadWritePaths=, the Protect* switches it sets, its bounding set,
# NoNewPrivileges=, its syscall filter and address families. As root, after
# `npm run build`; needs gcc, bubblewrap, util-linux, systemd (systemd-analyze).
# Never touches the host's mounts: everything happens in a private namespace.
#   systemd/sandbox-check/run.sh                 the unit as written
#   DROP=fowner systemd/sandbox-check/run.sh     the same without one capability
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
unit="$repo/systemd/agent-sudo-sandbox.service"
work=$(mktemp -d /var/tmp/agent-sudo-sandbox-check.XXXXXX)
trap 'rm -rf "$work"' EXIT
chmod 0711 "$work"
caps=$(sed -n 's/^CapabilityBoundingSet=//p' "$unit" | tr ' ' '\n' | grep -v "^CAP_${DROP:-NONE}$" | sed 's/^CAP_/+/' | tr 'A-Z' 'a-z' | paste -sd,)
filter=$(sed -n 's/^SystemCallFilter=//p' "$unit")
families=$(sed -n 's/^RestrictAddressFamilies=//p' "$unit" | sed 's/AF_UNIX/1/; s/AF_NETLINK/16/; s/AF_INET6/10/; s/AF_INET/2/' | tr ' ' ',')
# The test process runs under the filter too: its own TCP server needs AF_INET (FAMILIES=all to allow it).
[ "${FAMILIES:-}" = all ] && families="$families,2,10"
gcc -O2 -DALLOWED="$(node "$here/syscalls.mjs" $filter)" -DFAMILIES="$families" -o "$work/seccomp-allow" "$here/seccomp-allow.c"
echo "bounding set: $caps"
echo "syscall filter: $filter; address families: $families"
cd "$repo"
TMPDIR="$work" CAPS="$caps" SECCOMP="$work/seccomp-allow" RW="$work $repo" PKM=1 PCG=1 PP=1 PD=1 \
  "$here/emulate.sh" timeout 600 npx vitest run test/sandbox "$@"

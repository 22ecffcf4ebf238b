#!/bin/sh
# The README's quick start on a fresh machine, repeatable: a minimal Debian
# root made by debootstrap, with Node 20 and npm copied from this machine and
# nothing else, entered with its own namespaces (mount, pid, uts, ipc,
# cgroup; net with loopback only) through pivot_root. Inside, as root:
#
#   install    npm install                      (with this machine's network:
#                                                the only step that has it)
#   quickstart npm start (background) → POST /exec "touch /tmp/x" must answer
#              200 with an undo_id, /tmp/x must exist; `agent-sudo rollback
#              UNDO_ID` must remove it; the banner and /health are printed;
#              then the same tree copied under /root (mode 0700) must be
#              refused by `agent-sudo start`, creating nothing
#   test       npm test, then the passed/failed/skipped counts, every skipped
#              test's name (its reason), the failures, and every file the run
#              left changed on the root's disk outside the checkout
#
# usage: scripts/fresh-root-check.sh [--dir DIR] [--suite SUITE] [--mirror URL]
#          [--repo PATH] [--ref REF] [--phases "prepare install quickstart test"]
#        scripts/fresh-root-check.sh [--dir DIR] --run 'SHELL COMMAND'   (in the root, loopback only)
# Defaults: DIR /var/tmp/agent-sudo-fresh (never under /tmp: the root's own
# /tmp is a fresh tmpfs, as on Debian 13), SUITE trixie, the Debian mirror
# deb.debian.org, REPO this checkout, REF its current branch. `prepare`
# (re)builds DIR/root from a cached DIR/base-SUITE (debootstrap
# --variant=minbase: only Essential and Required packages: no curl, sudo,
# git, procps, bubblewrap, shellcheck, iproute2, systemd) and clones REF into
# /srv/agent-sudo (as the README says: a directory the service users can
# search; /root is mode 0700 and `agent-sudo start` refuses it — `quickstart`
# checks that too). Logs and results are written inside to /var/log/fresh
# (never under /root, which tests snapshot) and copied to DIR/results/
# (logs, vitest.json, summary.txt).
#
# Needs root, debootstrap, util-linux (unshare), perl, git, and a
# built checkout here (dist/test/support/throwaway-root.js; built with
# `npm run build` when missing) for the seccomp filter.
#
# What protects this machine while the suite runs inside: the root's own
# namespaces (its processes, mounts, hostname, IPC, network — loopback only,
# except during `install`), its own cgroup (a child of this shell's cgroup v2;
# the executor's stale-cgroup sweep sees nothing else), a fresh /dev with no
# disks, a fresh /proc with /proc/sys read-only (user.* writable) and
# sysrq-trigger/kcore masked, a read-only /sys, and — for every process — the
# same bounding-set drops and seccomp filter as test/support/throwaway-root.ts
# (no module, clock, kexec, swap, reboot, superblock remounts, block devices).
# The root's files are a directory on this machine's disk: what the suite
# writes there stays there (that is what the diff at the end shows).
set -eu

die() { echo "fresh-root-check: $*" >&2; exit 1; }
say() { echo "fresh-root-check: $*" >&2; }

HERE=$(cd "$(dirname "$0")/.." && pwd)
DIR=/var/tmp/agent-sudo-fresh
SUITE=trixie
MIRROR=http://deb.debian.org/debian
REPO=$HERE
REF=
PHASES="prepare install quickstart test"
RUN=
while [ $# -gt 0 ]; do
  case $1 in
    --dir) DIR=$2; shift 2 ;;
    --suite) SUITE=$2; shift 2 ;;
    --mirror) MIRROR=$2; shift 2 ;;
    --repo) REPO=$2; shift 2 ;;
    --ref) REF=$2; shift 2 ;;
    --phases) PHASES=$2; shift 2 ;;
    --run) RUN=$2; PHASES=run; shift 2 ;;
    -h|--help) sed -n '2,40p' "$0"; exit 0 ;;
    *) die "unknown argument $1 (see --help)" ;;
  esac
done
[ "$(id -u)" = 0 ] || die "needs root"
case $DIR in /tmp|/tmp/*) die "--dir must not be under /tmp" ;; /*) ;; *) die "--dir must be absolute" ;; esac
[ -n "$REF" ] || REF=$(git -C "$REPO" rev-parse --abbrev-ref HEAD)
for b in unshare perl git; do command -v "$b" >/dev/null || die "$b is not installed"; done
CHECKOUT=/srv/agent-sudo
BASE=$DIR/base-$SUITE
ROOT=$DIR/root
OUT=$DIR/results
mkdir -p "$DIR" "$OUT"

case $(uname -m) in
  x86_64) ARCH=x64 ;;
  aarch64) ARCH=arm64 ;;
  *) die "unsupported architecture $(uname -m)" ;;
esac

# ---------------------------------------------------------------- prepare

prepare() {
  if [ ! -e "$BASE/.complete" ]; then
    command -v debootstrap >/dev/null || die "debootstrap is not installed (apt-get install debootstrap)"
    rm -rf "$BASE"
    say "debootstrap --variant=minbase $SUITE $BASE $MIRROR"
    debootstrap --variant=minbase "$SUITE" "$BASE" "$MIRROR" > "$DIR/debootstrap.log" 2>&1 || die "debootstrap failed: see $DIR/debootstrap.log"
    rm -f "$BASE/etc/resolv.conf"
    printf '127.0.0.1\tlocalhost\n::1\t\tlocalhost ip6-localhost ip6-loopback\n' > "$BASE/etc/hosts"
    echo fresh > "$BASE/etc/hostname"
    touch "$BASE/.complete"
  fi
  rm -rf "$ROOT"
  say "copying $BASE to $ROOT"
  cp -a "$BASE" "$ROOT"
  rm -f "$ROOT/.complete"

  # Node 20 and npm, as this machine has them, nothing else.
  node=$(readlink -f "$(command -v node)")
  npmdir=$(cd "$(dirname "$(readlink -f "$(command -v npm)")")/.." && pwd)
  case $("$node" -v) in v20.*) ;; *) die "this machine's node is $("$node" -v), not 20" ;; esac
  install -m 0755 "$node" "$ROOT/usr/local/bin/node"
  mkdir -p "$ROOT/usr/local/lib/node_modules"
  cp -a "$npmdir" "$ROOT/usr/local/lib/node_modules/npm"
  rm -f "$ROOT/usr/local/lib/node_modules/npm/npmrc" # a distribution's global settings (here: a cafile the root lacks)
  ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$ROOT/usr/local/bin/npm"
  ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$ROOT/usr/local/bin/npx"

  say "git clone --branch $REF $REPO → $CHECKOUT"
  git clone --quiet --no-hardlinks --branch "$REF" "$REPO" "$ROOT$CHECKOUT"
  git -C "$ROOT$CHECKOUT" log -1 --format='fresh-root-check: cloned %h %s' >&2
}

# ---------------------------------------------------------------- entering

# The seccomp filter of test/support/throwaway-root.ts, from the built checkout here.
filter() {
  js=$HERE/dist/test/support/throwaway-root.js
  [ -e "$js" ] || (cd "$HERE" && npm run --silent build) >&2
  node --input-type=module -e "import { seccompFilter } from '$js'; console.log(seccompFilter('$ARCH'))"
}

# pid 1 inside: drops capabilities from the bounding set, installs the
# seccomp filter (both inherited by everything inside), starts the command,
# reaps every orphan, forwards INT/TERM, and exits with the command's status
# (the kernel then kills whatever is left in the pid namespace).
INIT='use strict;
my ($arch, $drop, $filter) = splice(@ARGV, 0, 3);
my $prctl = { x64 => 157, arm64 => 167 }->{$arch} or die "arch $arch\n";
for my $c (grep { length } split /,/, $drop) { syscall($prctl, 24, 0 + $c, 0, 0, 0) == 0 or die "PR_CAPBSET_DROP $c: $!\n" }
my $f = pack("H*", $filter);
my $prog = pack("S x6 Q", length($f) / 8, unpack("Q", pack("p", $f)));
syscall($prctl, 22, 2, $prog, 0, 0) == 0 or die "seccomp: $!\n";
my $pid = fork() // die "fork: $!\n";
if ($pid == 0) { exec { $ARGV[0] } @ARGV; die "exec $ARGV[0]: $!\n" }
$0 = "fresh-root-init";
$SIG{$_} = do { my $s = $_; sub { kill $s, $pid } } for qw(INT TERM HUP);
my $status = 0;
while (1) {
  my $w = waitpid(-1, 0);
  if ($w == $pid) { $status = $?; last }
  if ($w == -1) { next if $!{EINTR}; last }
}
exit($status & 127 ? 128 + ($status & 127) : $status >> 8);'

# Run in the new namespaces before pivot_root. Args: root net(0|1) then the init argv.
SETUP='set -eu
R=$1 net=$2
shift 2
mount --make-rprivate /
mount --bind "$R" "$R"
mount -t proc -o nosuid,nodev,noexec proc "$R/proc"
mount --bind "$R/proc/sys" "$R/proc/sys"
mount -o remount,bind,ro,nosuid,nodev,noexec "$R/proc/sys"
mount --bind "$R/proc/sys/user" "$R/proc/sys/user"
mount -o remount,bind,rw,nosuid,nodev,noexec "$R/proc/sys/user"
mount -t tmpfs -o mode=0755,nosuid,noexec,size=1m fresh-dev "$R/dev"
mknod -m 0666 "$R/dev/null" c 1 3
mknod -m 0666 "$R/dev/zero" c 1 5
mknod -m 0666 "$R/dev/full" c 1 7
mknod -m 0666 "$R/dev/random" c 1 8
mknod -m 0666 "$R/dev/urandom" c 1 9
mknod -m 0666 "$R/dev/tty" c 5 0
for f in sysrq-trigger kcore; do [ -e "$R/proc/$f" ] && mount --bind "$R/dev/null" "$R/proc/$f"; done
ln -s /proc/self/fd "$R/dev/fd"; ln -s /proc/self/fd/0 "$R/dev/stdin"; ln -s /proc/self/fd/1 "$R/dev/stdout"; ln -s /proc/self/fd/2 "$R/dev/stderr"
ln -s pts/ptmx "$R/dev/ptmx"
mkdir "$R/dev/pts" "$R/dev/shm" "$R/dev/mqueue"
mount -t devpts -o newinstance,ptmxmode=0666,mode=0620,gid=5,nosuid,noexec fresh-devpts "$R/dev/pts"
mount -t tmpfs -o mode=1777,nosuid,nodev,size=1g fresh-shm "$R/dev/shm"
mount -t mqueue -o nosuid,nodev,noexec mqueue "$R/dev/mqueue"
mount -t sysfs -o ro,nosuid,nodev,noexec sysfs "$R/sys"
if [ "${FRESH_CGROUP:-}" = 1 ]; then mount -t cgroup2 -o nosuid,nodev,noexec cgroup2 "$R/sys/fs/cgroup"; fi
mount -t tmpfs -o mode=0755,nosuid,nodev,size=256m fresh-run "$R/run"
mkdir -m 1777 "$R/run/lock"
mount -t tmpfs -o mode=1777,nosuid,nodev,size=12g fresh-tmp "$R/tmp"
if [ "$net" = 0 ]; then
  hostname fresh
  perl -e "socket(my \$s, 2, 2, 0) or die; my \$ifr = pack(q(a16 s x22), q(lo), 1 | 8 | 0x40); ioctl(\$s, 0x8914, \$ifr) or die qq(loopback up: \$!\n)"
else
  mount --bind /etc/resolv.conf "$R/etc/resolv.conf"
  mount -o remount,bind,ro "$R/etc/resolv.conf"
  # The CA bundle of this machine, for a TLS-intercepting egress proxy (the root has no ca-certificates; gone with /run).
  if [ -e /etc/ssl/certs/ca-certificates.crt ]; then cp /etc/ssl/certs/ca-certificates.crt "$R/run/host-ca.crt"; fi
fi
cd "$R"
pivot_root . .
umount -l .
cd /
exec env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root USER=root LOGNAME=root SHELL=/bin/sh LANG=C.UTF-8 TERM=dumb "$@"'

# Bounding-set drops, as test/support/throwaway-root.ts: sys_module sys_rawio sys_boot sys_time audit_control syslog wake_alarm.
DROPS=16,17,22,25,30,34,35

# enter NET CMD...: runs CMD as root inside the root (NET 1: with this machine's network).
enter() {
  net=$1
  shift
  FILTER=${FILTER:-$(filter)}
  cg=
  mnt=$(awk '$9 == "cgroup2" { print $5; exit }' /proc/self/mountinfo)
  if [ -n "$mnt" ]; then
    own=$(sed -n 's/^0:://p' /proc/self/cgroup)
    prev=$mnt$own
    cg=$mnt${own%/}/agent-sudo-fresh-$$
    mkdir -p "$cg"
    echo $$ > "$cg/cgroup.procs"
  fi
  [ -e "$ROOT/etc/resolv.conf" ] || : > "$ROOT/etc/resolv.conf"
  set +e
  FRESH_CGROUP=${cg:+1} unshare --mount --pid --uts --ipc --cgroup $([ "$net" = 0 ] && echo --net) --fork --kill-child --propagation private -- \
    /bin/sh -c "$SETUP" fresh-root-setup "$ROOT" "$net" perl -e "$INIT" -- "$ARCH" "$DROPS" "$FILTER" "$@"
  rc=$?
  set -e
  if [ -n "$cg" ]; then
    echo $$ > "$prev/cgroup.procs"
    for c in $(find "$cg" -mindepth 1 -depth -type d 2>/dev/null) "$cg"; do rmdir "$c" 2>/dev/null || true; done
  fi
  return $rc
}

# ---------------------------------------------------------------- the phases

INSIDE_QUICKSTART='set -u
say() { echo "quickstart: $*"; }
mkdir -p /var/log/fresh
setsid npm start > /var/log/fresh/start.log 2>&1 < /dev/null &
pid=$!
t=0
until grep -q "^ready http" /var/log/fresh/start.log; do
  if ! kill -0 $pid 2>/dev/null; then say "npm start exited:"; cat /var/log/fresh/start.log; exit 1; fi
  t=$((t + 1)); [ $t -lt 900 ] || { say "npm start: not ready in 900 s"; cat /var/log/fresh/start.log; kill -INT -$pid; exit 1; }
  sleep 1
done
say "npm start ready after ${t} s; its output:"
sed "s/asu_[A-Za-z0-9_-]*/asu_…/g" /var/log/fresh/start.log
token=$(sed -n "s/^agent-sudo: dev token: //p" /var/log/fresh/start.log)
port=$(sed -n "s|^ready http://127.0.0.1:||p" /var/log/fresh/start.log)
status=0
node --input-type=module - "$token" "$port" <<'"'"'EOF'"'"' || status=1
import { existsSync } from "node:fs";
import { execFileSync } from "node:child_process";
const [token, port] = process.argv.slice(2);
const base = `http://127.0.0.1:${port}`;
const health = await (await fetch(`${base}/health`)).json();
console.log(`quickstart: /health status ${health.status}; capabilities:`);
for (const [k, v] of Object.entries(health.capabilities ?? {})) console.log(`  ${k}: ${v.state}: ${v.detail}${v.fix ? ` — ${v.fix}` : ""}`);
const exec = async (command) => {
  const res = await fetch(`${base}/exec`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: JSON.stringify({ command }) });
  return { status: res.status, body: await res.json() };
};
const fail = (m) => { console.log(`quickstart: FAILED: ${m}`); process.exit(1); };
const hi = await exec("echo hi");
console.log(`quickstart: POST /exec "echo hi" → ${hi.status} ${JSON.stringify(hi.body)}`);
if (hi.status !== 200 || hi.body.output !== "hi\n") fail("echo hi");
if (existsSync("/tmp/x")) fail("/tmp/x exists before the test");
const r = await exec("touch /tmp/x");
console.log(`quickstart: POST /exec "touch /tmp/x" → ${r.status} ${JSON.stringify(r.body)}`);
if (r.status !== 200 || r.body.tier !== 2 || typeof r.body.undo_id !== "string") fail("touch /tmp/x was not a committed tier-2 run");
if (!existsSync("/tmp/x")) fail("/tmp/x does not exist after a 200");
console.log("quickstart: /tmp/x exists");
const out = execFileSync("node", ["dist/cli/main.js", "rollback", r.body.undo_id], { encoding: "utf8" });
console.log(`quickstart: agent-sudo rollback ${r.body.undo_id}:\n${out.trimEnd()}`);
if (existsSync("/tmp/x")) fail("/tmp/x still exists after the rollback");
console.log("quickstart: /tmp/x is gone: PASSED");
EOF
kill -INT -$pid
wait $pid
say "npm start stopped (exit $?)"
# The same built tree in the home of root (mode 0700): start refuses it and creates nothing.
mkdir -m 0700 /root/in-home && cp -a bin dist package.json policies services /root/in-home/ && ln -s "$PWD/node_modules" /root/in-home/node_modules
if AGENT_SUDO_HOME=/root/in-home-state node /root/in-home/dist/cli/main.js start > /root/in-home.log 2>&1; then say "FAILED: a start from /root/in-home did not refuse"; status=1; fi
say "a start from a clone under /root (0700) refuses:"; grep "cannot reach" /root/in-home.log || status=1
if [ -e /root/in-home-state ]; then say "FAILED: the refused start created its state dir"; status=1; fi
rm -rf /root/in-home /root/in-home.log
exit $status'

INSIDE_TEST='set -u
L=/var/log/fresh
mkdir -p $L
state() { find / -xdev \( -path "$PWD" -o -path /root/.npm -o -path /proc -o -path $L \) -prune -o -printf "%p %M %u:%g %s %T@\n" 2>/dev/null | sort; }
state > $L/state-before.txt
start=$(date +%s)
npm test -- --reporter=default --reporter=json --outputFile=$L/vitest.json > $L/test.log 2>&1
rc=$?
echo "npm test exited $rc after $(( $(date +%s) - start )) s"
state > $L/state-after.txt
exit $rc'

SUMMARY='const fs = require("fs");
const r = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
const suites = r.testResults ?? [];
// A file whose hooks failed has status failed while its tests read "skipped": count those files too.
const brokenFiles = suites.filter((s) => s.status === "failed" && !(s.assertionResults ?? []).some((a) => a.status === "failed"));
console.log(`${r.numPassedTests} passed, ${r.numFailedTests} failed, ${r.numPendingTests + (r.numTodoTests ?? 0)} skipped (${r.numTotalTests} tests in ${suites.length} files; ${r.numFailedTestSuites} failed suites, of them ${brokenFiles.length} files failed outside any test: see test.log)`);
for (const s of brokenFiles) console.log(`FAILED FILE ${s.name.replace(/^.*agent-sudo\//, "")} ${(s.message ?? "").split("\n")[0]}`);
for (const s of suites) for (const a of s.assertionResults ?? []) {
  const file = s.name.replace(/^.*agent-sudo\//, "");
  if (a.status === "failed") console.log(`FAILED ${file} › ${a.fullName}\n  ${(a.failureMessages ?? []).join(" ").split("\n").slice(0, 3).join("\n  ")}`);
  if (a.status === "pending" || a.status === "skipped" || a.status === "todo") console.log(`SKIPPED ${file} › ${a.fullName}`);
}'

for phase in $PHASES; do
  case $phase in
    prepare) prepare ;;
    install)
      say "npm install (inside the root, with this machine's network)"
      enter 1 /bin/sh -c "if [ -e /run/host-ca.crt ]; then export NODE_EXTRA_CA_CERTS=/run/host-ca.crt; fi; cd $CHECKOUT && npm install" 2>&1 | tee "$OUT/install.log"
      ;;
    quickstart)
      say "npm start + tier-2 touch /tmp/x + rollback (inside, loopback only)"
      rc=0
      enter 0 /bin/sh -c "cd $CHECKOUT && $INSIDE_QUICKSTART" > "$OUT/quickstart.log" 2>&1 || rc=$?
      cat "$OUT/quickstart.log"
      [ $rc = 0 ] || die "quickstart failed ($rc)"
      ;;
    test)
      say "npm test (inside, loopback only; 10-20 min on a loaded 2-core machine)"
      rc=0
      enter 0 /bin/sh -c "cd $CHECKOUT && $INSIDE_TEST" || rc=$?
      cp "$ROOT/var/log/fresh/test.log" "$ROOT/var/log/fresh/vitest.json" "$OUT/" 2>/dev/null || true
      {
        node -e "$SUMMARY" "$ROOT/var/log/fresh/vitest.json" || echo "no vitest.json: see $OUT/test.log"
        echo "files changed on the root's disk by npm test (outside the checkout and /root/.npm; < before, > after):"
        diff "$ROOT/var/log/fresh/state-before.txt" "$ROOT/var/log/fresh/state-after.txt" | grep '^[<>]' || echo "  none"
        echo "changes in the checkout (git status):"
        git -C "$ROOT$CHECKOUT" status --porcelain --ignored=no || true
      } > "$OUT/summary.txt"
      cat "$OUT/summary.txt"
      [ $rc = 0 ] || die "npm test failed ($rc)"
      ;;
    run) enter 0 /bin/sh -c "$RUN" ;;
    *) die "unknown phase $phase" ;;
  esac
done

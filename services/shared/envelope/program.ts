// The envelope program: perl (perl-base is Essential on Debian and Ubuntu,
// so it is there wherever util-linux is) because it can make the system calls
// util-linux 2.38 cannot (mount_setattr, an O_PATH walk) in one process and a
// few milliseconds. It is passed to `perl -e`, never written to disk, so no
// file can be swapped under it. What it does, in order:
//   unshare(mount [+ pid, net, ipc, uts]); mounts private; fork when a pid
//   namespace is asked (the child is its pid 1, killed with the parent);
//   mirror: one overlay per host layer under the trial's root;
//   read-only: mount_setattr(AT_RECURSIVE, RDONLY|NOSUID|NODEV) on the whole
//   tree (a read-only mount still opens a device node for writing: a disk's
//   node in a chroot's /dev would read past every mask and write the disk);
//   a fresh minimal /dev (null zero full random urandom tty, devpts, shm);
//   scratch: tmpfs, or an overlay whose reads see the host and whose writes vanish;
//   masks: agent-sudo's state and secret paths, empty and read-only (after the
//   scratch overlays, which would otherwise show what a mask hid);
//   mirror: pivot_root into it; a fresh /proc for a new pid namespace (tier 0:
//   read-only), its /proc/sys, sysrq-trigger, irq, bus, scsi, acpi, fs, driver
//   and mtrr read-only; live: nodev on every mount; loopback up in a new net
//   namespace; the bounding set cut to the listed capabilities, none ambient
//   or inheritable; groups, gid, uid; no_new_privs; the cwd walked one
//   component at a time with O_PATH|O_NOFOLLOW; read-only: Landlock refuses
//   writes but in the scratch places and /dev (a read-only mount still opens
//   a host FIFO for writing); read-only and mirror: a core
//   limit of 1 byte, hard (the kernel then runs no core_pattern pipe helper:
//   that helper runs as root outside every namespace); every descriptor from
//   4 up closed; the seccomp filter (seccomp.ts); "ok" on fd 3; exec.
// Any failure before exec writes "error: …" to fd 3 and exits 125: the
// command has not run. Syscall numbers for x86-64 and arm64.
//
// Two ways to start it: `perl -e PROGRAM spec… -- program…` builds one
// envelope and execs (the sandbox's bwrap-less launcher, the tests); or
// `perl -e PROGRAM --serve arch=…` is the warm envelope server (server.ts):
// started once per service, it reads requests from its parent on stdin and,
// per request, forks a child that enters a new session (and the request's
// cgroup), takes /dev/null and three fresh pipes as fds 0–3, and then builds
// the envelope exactly as above (or execs a given argv: network wrappers).
// The server relays the pipes to its parent as frames on stdout, reaps the
// child, kills what it left in its session and cgroup, and reports the exit.
// Perl's start and compile (~2.5 ms) and a spawn from a large node process
// are paid once, not per command; once asked for a pid namespace, the server
// keeps the next such child forked ahead whenever nothing runs (a spare,
// `new_kid`: a fresh pid namespace, session and pipes, nothing of the host
// read yet) and hands it the next request, so fork (~1–3 ms on these VMs)
// leaves the request's path.
export const ENVELOPE_PROGRAM = String.raw`use strict;
# agent-sudo envelope (services/shared/envelope/program.ts): builds the
# kernel's envelope around one command, then execs it. Spec: key=value words
# up to "--", then the program and its arguments. Setup outcome on fd 3: "ok"
# just before exec, or "error: ..." (exit 125). Nothing here reads the command.
# "--serve arch=..." first: the warm server instead (serve() below).
my %NR = (
  x64   => { O_DIRECTORY => 0200000, O_NOFOLLOW => 0400000, unshare => 272, mount => 165, umount2 => 166, pivot_root => 155, mount_setattr => 442, prctl => 157,
             capset => 126, capget => 125, setgroups => 116, setresuid => 117, setresgid => 119, mknodat => 259, setsid => 112, dup3 => 292, clock_gettime => 228,
             setns => 308, llistxattr => 195, lgetxattr => 192, prlimit64 => 302, close_range => 436,
             landlock_create_ruleset => 444, landlock_add_rule => 445, landlock_restrict_self => 446 },
  arm64 => { O_DIRECTORY => 040000, O_NOFOLLOW => 0100000, unshare => 97, mount => 40, umount2 => 39, pivot_root => 41, mount_setattr => 442, prctl => 167,
             capset => 91, capget => 90, setgroups => 159, setresuid => 147, setresgid => 149, mknodat => 33, setsid => 157, dup3 => 24, clock_gettime => 113,
             setns => 268, llistxattr => 12, lgetxattr => 9, prlimit64 => 261, close_range => 436,
             landlock_create_ruleset => 444, landlock_add_rule => 445, landlock_restrict_self => 446 },
);
my (%o, @mask, @tmp, @layer, $status, $S, $GATE);
my $IN_PIDNS = 0;    # the server forked this process as pid 1 of a new pid namespace already
sub fail { my $m = "@_"; $m =~ s/\n/ /g; if ($status) { syswrite($status, "error: $m\n") } else { print STDERR "agent-sudo-envelope: $m\n" } exit 125 }
sub sc { my $n = shift; my @a = map { my $x = $_; $x } @_; my $r = syscall($S->{$n}, @a); fail("$n: $!") if $r < 0; $r }
my $NONE = 'none';
sub mnt { my ($src, $dst, $fs, $fl, $data) = @_; sc('mount', $src, $dst, $fs // 0, 0 + $fl, $data // 0) }
# Plain numbers, not use constant or Fcntl: each module costs a millisecond on every one-shot command.
my ($MS_RDONLY, $MS_NOSUID, $MS_NODEV, $MS_NOEXEC, $MS_REMOUNT, $MS_BIND, $MS_REC, $MS_PRIVATE) = (1, 2, 4, 8, 32, 4096, 16384, 1 << 18);
sub ro_remount { my ($p) = @_; mnt($NONE, $p, undef, $MS_REMOUNT | $MS_BIND | $MS_RDONLY | $MS_NOSUID | $MS_NODEV) }
# MOUNT_ATTR_RDONLY | NOSUID | NODEV, recursively (AT_RECURSIVE).
sub setattr_ro { my ($p) = @_; sc('mount_setattr', -100, $p, 0x8000, pack('QQQQ', 1 | 2 | 4, 0, 0, 0), 32) }

# A fresh minimal /dev: no disks, no host devpts; /dev/shm a directory of it (one mount fewer).
sub dev_setup {
  my ($d) = @_;
  mnt('tmpfs', $d, 'tmpfs', $MS_NOSUID | $MS_NOEXEC, 'mode=0755,size=64m');
  my %nodes = (null => [1, 3], zero => [1, 5], full => [1, 7], random => [1, 8], urandom => [1, 9], tty => [5, 0]);
  for my $n (sort keys %nodes) {
    my ($maj, $min) = @{$nodes{$n}};
    sc('mknodat', -100, "$d/$n", 0020666, ($maj << 8) | $min);
    chmod(0666, "$d/$n") or fail("chmod $d/$n: $!");
  }
  symlink($_->[0], "$d/$_->[1]") or fail("symlink $_->[1]: $!")
    for ['/proc/self/fd', 'fd'], ['/proc/self/fd/0', 'stdin'], ['/proc/self/fd/1', 'stdout'], ['/proc/self/fd/2', 'stderr'], ['pts/ptmx', 'ptmx'];
  for my $sub (qw(pts shm mqueue .masks)) { mkdir("$d/$sub", 0755) or fail("mkdir $d/$sub: $!") }
  chmod(01777, "$d/shm") or fail("chmod $d/shm: $!");
  mnt('devpts', "$d/pts", 'devpts', $MS_NOSUID | $MS_NOEXEC, 'newinstance,ptmxmode=0666,mode=0620');
  open(my $e, '>', "$d/.masks/empty") or fail("empty: $!");
  close($e);
  chmod(0444, "$d/.masks/empty");
}

# Tier 0: Landlock refuses every write-like open and every change of the tree but in the scratch places
# and the fresh /dev. The read-only mounts refuse the rest with EROFS first; what they let through is opening
# a FIFO (or any special file) for writing — a host process may be reading one. Without Landlock in the
# kernel (ENOSYS, or EOPNOTSUPP: not enabled at boot) this returns: the executor reports that as degraded.
sub landlock_writes {
  my @dirs = @_;
  my $abi = syscall($S->{landlock_create_ruleset}, 0, 0, 1);    # LANDLOCK_CREATE_RULESET_VERSION
  if ($abi < 1) { return if $! + 0 == 38 || $! + 0 == 95; fail("landlock: $!") }
  my $h = 2;                       # WRITE_FILE
  $h |= 1 << $_ for 4 .. 12;       # REMOVE_DIR, REMOVE_FILE, MAKE_CHAR, MAKE_DIR, MAKE_REG, MAKE_SOCK, MAKE_FIFO, MAKE_BLOCK, MAKE_SYM
  $h |= 1 << 13 if $abi >= 2;      # REFER
  $h |= 1 << 14 if $abi >= 3;      # TRUNCATE
  my $fd = sc('landlock_create_ruleset', pack('Q', $h), 8, 0);
  for my $d (@dirs) {
    sysopen(my $p, $d, 010000000 | $S->{O_DIRECTORY} | $S->{O_NOFOLLOW}) or fail("landlock $d: $!");    # O_PATH
    sc('landlock_add_rule', $fd, 1, pack('Ql', $h, fileno($p)), 0);    # LANDLOCK_RULE_PATH_BENEATH (packed)
  }
  sc('landlock_restrict_self', $fd, 0);    # the ruleset's fd goes with close_range below
}

# Builds the envelope the words describe and execs the program; never returns.
sub envelope {
  my @args = @_;
  while (@args) {
    my $w = shift @args;
    last if $w eq '--';
    my ($k, $v) = split /=/, $w, 2;
    defined $v or die "agent-sudo-envelope: bad spec word\n";
    if ($k eq 'mask') { push @mask, $v } elsif ($k eq 'tmp') { push @tmp, $v } elsif ($k eq 'layer') { push @layer, [split /\n/, $v, -1] }
    else { $o{$k} = $v }
  }
  my @cmd = @args;
  $status or open($status, '>&=', 3) or undef $status;
  @cmd or fail('no command');
  $S = $NR{$o{arch} // ''} or fail('unsupported architecture');

  # Namespaces: always a private mount namespace; pid/net/ipc/uts as asked.
  my %NS = (pid => 0x20000000, net => 0x40000000, ipc => 0x08000000, uts => 0x04000000);
  my $flags = 0x20000;
  $flags |= $NS{$_} // fail("namespace $_") for grep { length } split /,/, ($o{ns} // '');
  sc('unshare', $IN_PIDNS ? $flags & ~$NS{pid} : $flags);
  mnt($NONE, '/', undef, $MS_REC | $MS_PRIVATE);
  if ($flags & $NS{pid} && !$IN_PIDNS) {
    # The child is pid 1 of the new namespace: when it exits, everything left in it dies.
    my $pid = fork() // fail("fork: $!");
    if ($pid) {
      close($status) if $status;
      $SIG{$_} = 'IGNORE' for qw(INT QUIT TSTP TTIN TTOU);
      waitpid($pid, 0);
      my $s = $?;
      exit(($s & 127) ? 128 + ($s & 127) : $s >> 8);
    }
    sc('prctl', 1, 9, 0, 0, 0);    # PR_SET_PDEATHSIG: SIGKILL when the waiting parent goes
  }

  my $base = '';    # where the command's / is being built ('' = the host's own tree)
  if (($o{mode} // '') eq 'mirror') {
    # A copy-on-write mirror: one overlay per host file system, upper layers in the caller's trial directory.
    $base = $o{root} // fail('mirror without root');
    for my $l (@layer) {
      my ($lower, $upper, $work, $target) = @$l;
      defined $target or fail('bad layer');
      mnt('agent-sudo-trial', "$base$target", 'overlay', $MS_NODEV, "redirect_dir=off,metacopy=off,lowerdir=$lower,upperdir=$upper,workdir=$work");
    }
  } elsif ($o{ro}) {
    setattr_ro('/');
  } else {
    # Live: the host's tree as it is, but no device node outside the fresh /dev opens (a disk's node in a chroot).
    sc('mount_setattr', -100, '/', 0x8000, pack('QQQQ', 4, 0, 0, 0), 32);    # MOUNT_ATTR_NODEV, AT_RECURSIVE
  }
  dev_setup("$base/dev");
  # Private scratch: tmpfs, or an overlay whose reads see the host and whose writes vanish ("tmp=overlay:/tmp").
  my ($scratch, $sd) = (0, "$base/dev/.masks/scratch");    # one tmpfs for every scratch overlay's upper and work
  for my $t (@tmp) {
    my ($how, $dst) = split /:/, $t, 2;
    my $at = "$base$dst";
    next unless -d $at && !-l $at;
    if ($how eq 'tmpfs') {
      mnt('tmpfs', $at, 'tmpfs', $MS_NOSUID | $MS_NODEV, 'mode=0755,size=64m');
    } else {
      unless (-d $sd) {
        mkdir($sd, 0700) or fail("mkdir $sd: $!");
        mnt('tmpfs', $sd, 'tmpfs', $MS_NOSUID | $MS_NODEV, 'mode=0700,size=256m');
      }
      my $s = "$sd/" . $scratch++;
      mkdir($s, 0700) && mkdir("$s/u", 0700) && mkdir("$s/w", 0700) or fail("scratch dirs: $!");
      # The merged directory takes the upper's owner and mode: give it the host's (/tmp stays 1777).
      my @st = lstat($at);
      chown($st[4], $st[5], "$s/u") && chmod($st[2] & 07777, "$s/u") or fail("scratch owner: $!");
      mnt('agent-sudo-scratch', $at, 'overlay', $MS_NOSUID | $MS_NODEV, "lowerdir=$at,upperdir=$s/u,workdir=$s/w");
    }
  }
  # Masks: agent-sudo's own state and the configured secret paths, empty and read-only.
  # "mask=DST" (an empty tmpfs or file here) or "mask=SRC\nDST" (bind SRC from the trial dir).
  # After the scratch overlays: an overlay's lower layer would show what a mask below it hid.
  for my $m (@mask) {
    my ($src, $dst) = $m =~ /\n/ ? split(/\n/, $m, 2) : (undef, $m);
    fail('mask: not an absolute path') unless $dst =~ m{^/};
    my $at = "$base$dst";
    next if -l $at;    # never follow a link: masking its target would mask a path not named
    next unless -e _;
    if (defined $src) {
      mnt($src, $at, undef, $MS_BIND);
    } elsif (-d _) {
      mnt('tmpfs', $at, 'tmpfs', $MS_RDONLY | $MS_NOSUID | $MS_NODEV | $MS_NOEXEC, 'mode=0000,size=4k');
      next;
    } else {
      mnt("$base/dev/.masks/empty", $at, undef, $MS_BIND);
      ro_remount($at);
    }
  }
  if ($base) {
    chdir($base) or fail("chdir $base: $!");
    sc('pivot_root', '.', '.');
    sc('umount2', '.', 2);
    chdir('/') or fail("chdir /: $!");
  }
  if ($flags & $NS{pid}) {
    # A fresh /proc for the new pid namespace; its sysctls and sysrq trigger read-only.
    # Read-only for tier 0; in the mirror, the files that reach the host's hardware or file systems (a SCSI
    # device removed through /proc/scsi/scsi, ACPI wake-up, CIFS flags) read-only too.
    mnt('proc', '/proc', 'proc', $MS_NOSUID | $MS_NODEV | $MS_NOEXEC | ($o{ro} ? $MS_RDONLY : 0));
    mnt('/proc/sys', '/proc/sys', undef, $MS_BIND | $MS_REC);
    ro_remount('/proc/sys');
    for my $f ('/proc/sysrq-trigger', '/proc/irq', '/proc/bus', '/proc/scsi', '/proc/acpi', '/proc/fs', '/proc/driver', '/proc/mtrr') {
      next unless -e $f;
      mnt($f, $f, undef, $MS_BIND);
      ro_remount($f);
    }
  }
  if ($flags & $NS{net}) {
    # Loopback up (SIOCSIFFLAGS: IFF_UP|IFF_LOOPBACK|IFF_RUNNING); nothing else in this namespace.
    # An AF_UNIX socket carries the ioctl as well as an inet one, and needs no network permission.
    socket(my $sock, 1, 2, 0) or fail("socket: $!");
    my $ifr = pack('a16 s x22', 'lo', 1 | 8 | 0x40);
    ioctl($sock, 0x8914, $ifr) or fail("loopback: $!");
    close($sock);
  }
  mnt('tmpfs', '/dev/.masks', 'tmpfs', $MS_RDONLY | $MS_NOSUID | $MS_NODEV | $MS_NOEXEC, 'mode=0000,size=4k');

  # Capabilities: the bounding set keeps only the listed ones (a root exec gets exactly those),
  # none inheritable or ambient. Dropped while this process still holds CAP_SETPCAP.
  my %keep = map { $_ => 1 } grep { length } split /,/, ($o{caps} // '');
  my $last = 40;
  if (open(my $cl, '<', '/proc/sys/kernel/cap_last_cap')) { $last = 0 + <$cl>; close($cl) }
  for my $c (0 .. $last) { next if $keep{$c}; sc('prctl', 24, $c, 0, 0, 0) }    # PR_CAPBSET_DROP
  sc('prctl', 47, 4, 0, 0, 0);    # PR_CAP_AMBIENT_CLEAR_ALL
  # Who runs it: groups, gid, uid (a uid other than 0 loses every capability here).
  if (defined $o{uid}) {
    my @g = grep { length } split /,/, ($o{groups} // '');
    sc('setgroups', scalar(@g), @g ? pack('L*', @g) : 0);
    sc('setresgid', 0 + $o{gid}, 0 + $o{gid}, 0 + $o{gid});
    sc('setresuid', 0 + $o{uid}, 0 + $o{uid}, 0 + $o{uid});
  }
  {
    my ($lo, $hi) = (0, 0);
    for my $c (keys %keep) { if ($c < 32) { $lo |= 1 << $c } else { $hi |= 1 << ($c - 32) } }
    # Never more than this process holds (capset refuses to add): keep ∩ permitted.
    my ($hdr, $now) = (pack('LL', 0x20080522, 0), "\0" x 24);
    syscall($S->{capget}, $hdr, $now) == 0 or fail("capget: $!");    # not sc(): it copies, and capget writes $now
    my (undef, $plo, undef, undef, $phi) = unpack('L6', $now);
    ($lo, $hi) = ($lo & $plo, $hi & $phi);
    my $sets = (defined $o{uid} && $o{uid} != 0) ? pack('L6', 0, 0, 0, 0, 0, 0) : pack('L6', $lo, $lo, 0, $hi, $hi, 0);
    sc('capset', pack('LL', 0x20080522, 0), $sets);
  }
  sc('prctl', 38, 1, 0, 0, 0);    # PR_SET_NO_NEW_PRIVS
  sc('setsid') if $o{setsid};
  # The working directory, one component at a time, never through a symlink.
  if (length($o{cwd} // '')) {
    chdir('/') or fail("chdir /: $!");
    for my $c (grep { length } split m{/}, $o{cwd}) {
      fail("cwd: bad component") if $c eq '.' || $c eq '..';
      # O_PATH: search permission suffices, as for chdir(2).
      sysopen(my $h, $c, 010000000 | $S->{O_DIRECTORY} | $S->{O_NOFOLLOW}) or fail("cwd $o{cwd}: $c: $!");
      chdir($h) or fail("cwd $o{cwd}: $c: $!");
    }
  }
  landlock_writes(grep { -d $_ && !-l $_ } '/dev', map { (split /:/, $_, 2)[1] } @tmp) if $o{ro};
  # A gated request: built, it waits for the server's release ("G": its caller made the run durable first).
  if ($GATE) {
    my ($b, $n) = ('');
    do { $n = sysread($GATE, $b, 1) } while (!defined $n && $! + 0 == 4);
    fail('not released to run') unless $n && $b eq 'G';
    close($GATE);
  }
  # A crash makes no core: with a limit of 1 byte the kernel skips a core_pattern pipe helper (apport,
  # systemd-coredump), which would run as root in the host's namespaces; hard, so the command cannot raise it.
  sc('prlimit64', 0, 4, pack('QQ', 1, 1), 0) if $o{ro} || ($o{mode} // '') eq 'mirror';    # RLIMIT_CORE
  # Nothing this process inherited reaches the command but fds 0-3 (close-on-exec is the opener's promise, not ours).
  # ENOSYS before Linux 5.9: those kernels keep relying on close-on-exec.
  syscall($S->{close_range}, 4, 0xffffffff, 0);
  # Last: the seccomp filter (seccomp.ts), which would refuse some of the calls above.
  if (length($o{seccomp} // '')) {
    my $f = pack('H*', $o{seccomp});
    my $prog = pack('S x6 Q', length($f) / 8, unpack('Q', pack('p', $f)));
    sc('prctl', 22, 2, $prog, 0, 0);    # PR_SET_SECCOMP, SECCOMP_MODE_FILTER
  }
  if ($status) { syswrite($status, "ok\n"); close($status) }
  exec { $cmd[0] } @cmd;
  print STDERR "agent-sudo-envelope: $cmd[0]: $!\n";
  exit 127;
}

# Extended attributes of many paths (the sandbox's manifests; Node has no xattr calls), never
# following an entry's own symlink. Per path: "E" errno, or "L" count and per name "n" len name
# len value, or "e" errno len name (lengths and counts 32-bit big-endian).
sub xattrs {
  my $out = '';
  for my $p (@_) {
    my $buf = "\0" x 65536;
    my $n = syscall($S->{llistxattr}, $p, $buf, 65536);
    if ($n < 0) { $out .= 'E' . pack('N', $! + 0); next }
    my @names = grep { length } split /\0/, substr($buf, 0, $n);
    $out .= 'L' . pack('N', scalar @names);
    for my $name (@names) {
      my $v = "\0" x 65536;
      my $m = syscall($S->{lgetxattr}, $p, $name, $v, 65536);
      if ($m < 0) { $out .= 'e' . pack('N', $! + 0) . pack('N', length $name) . $name; next }
      $out .= 'n' . pack('N', length $name) . $name . pack('N', $m) . substr($v, 0, $m);
    }
  }
  $out;
}

# ---- the warm server -------------------------------------------------------
# Requests on stdin: "ID LENGTH\n" and LENGTH bytes of NUL-separated fields:
#   kind, cgroup.procs path or "", "STDOUT,STDERR" caps in bytes (0: none; what
#   is past a cap is read and dropped), "1" when gated or "" (an envelope
#   built waits, just before its seccomp filter and exec, until "ID go\n"
#   comes on stdin; a kind envelope only), number of env entries, the entries
#   (NAME=VALUE), then the envelope's words (kind envelope) or an argv to
#   exec with fd 3 open (exec: a wrapper around the envelope) or closed (plain),
#   or paths whose xattrs the server reads itself, no child (kind xattrs).
# Frames on stdout: "TYPE ID LENGTH\n" and LENGTH bytes. P: the child's pid;
# O, E: its stdout, stderr; S: what it wrote on fd 3; X: "exit N" or
# "signal N", last, once its pipes are drained.
my (%kid, %fd, $sigr, $sigw, $ownpidns);    # pid => { id, open, procs, status, until }; fileno => [pid, type, handle]; the SIGCHLD pipe
sub now_s { my $b = "\0" x 16; syscall($S->{clock_gettime}, 1, $b) == 0 or return time; my ($s, $ns) = unpack('q2', $b); $s + $ns / 1e9 }
# All of $buf to $h (EINTR retried); false when the reader is gone.
sub write_all {
  my ($h, $buf) = @_;
  while (length $buf) {
    my $n = syswrite($h, $buf);
    if (!defined $n) { next if $! + 0 == 4; return 0 }
    substr($buf, 0, $n, '');
  }
  1;
}
sub put {
  my ($type, $id, $data) = @_;
  write_all(\*STDOUT, "$type $id " . length($data) . "\n" . $data) or exit 0;    # the parent is gone
}
sub refuse { my ($id, $why) = @_; put('S', $id, "error: $why\n"); put('X', $id, 'exit 125') }
# A child forked ahead for the next envelope that asks for a pid namespace: born as pid 1 of a
# fresh one, its session and pipes set, blocked on its own control pipe until a request is handed
# to it (fork and the new pid namespace cost milliseconds on some hosts; they leave the request's
# path). It has read nothing of the host yet: the mount namespace, masks, cgroup, environment,
# user and command all come from the request and are set up after it arrives, as for a child
# forked then.
my ($spare, $want_spare);    # { pid, ctl (write end), r => [stdout, stderr, status read ends] }; asked for a pid namespace once
sub new_kid {
  # $fields undef: a spare, which reads them from its control pipe; gated: the release comes on that pipe too
  my ($pidns, $plain, $fields, $gated) = @_;
  my (@r, @w, $cr, $cw);
  for (0 .. 2) { pipe(my $r, my $w) or return "pipe: $!"; push @r, $r; push @w, $w }
  if (!$fields || $gated) { pipe($cr, $cw) or return "pipe: $!" }
  if ($pidns && syscall($S->{unshare}, 0x20000000) < 0) { return "unshare pid: $!" }
  my $pid = fork();
  # Later children are born in the server's own pid namespace again; if that fails, nothing here can be trusted to be fresh.
  if ($pidns && ($pid // 1) && syscall($S->{setns}, fileno($ownpidns), 0x20000000) < 0) { kill('KILL', $pid) if $pid; die "agent-sudo-envelope: setns back to its own pid namespace: $!\n" }
  return "fork: $!" unless defined $pid;
  if ($pid == 0) {
    $IN_PIDNS = $pidns;
    $SIG{$_} = 'DEFAULT' for qw(CHLD PIPE);
    # Perl counts handles per descriptor: none of the server's may alias the fds set below.
    close($_->[2]) for values %fd;
    close($_) for $sigr, $sigw, $ownpidns, @r, grep { defined } $cw, (map { $_->{gate} } values %kid), $spare ? ($spare->{ctl}, @{$spare->{r}}) : ();
    # fd 0 from /dev/null; 1, 2 (and 3 but for a plain run) the pipes; everything else is close-on-exec
    open(STDIN, '<', '/dev/null') or exit 125;
    for my $i (0 .. ($plain ? 1 : 2)) {
      my ($from, $to) = (fileno($w[$i]), $i + 1);
      if ($from == $to) { fcntl($w[$i], 2, 0) or exit 125 } else { syscall($S->{dup3}, $from, $to, 0) >= 0 or exit 125 }
    }
    # F_SETFD: perl's open sets close-on-exec; a wrapper (nsenter) passes fd 3 on to the envelope
    open($status, '>&=', 3) && fcntl($status, 2, 0) || exit 125 if !$plain;
    sc('prctl', 1, 9, 0, 0, 0);    # dies with the server
    sc('setsid');                  # its own session and process group: one kill ends it all
    my @f = $fields ? @$fields : read_request($cr);
    my ($kind, $procs, undef, $gate, $nenv, @rest) = @f;
    if ($gate) { $GATE = $cr } elsif ($cr) { close($cr) }
    my @env = splice(@rest, 0, $nenv // 0);
    if (length $procs) {           # its own cgroup, before it starts anything
      open(my $c, '>', $procs) or fail("cgroup $procs: $!");
      syswrite($c, "$$") or fail("cgroup $procs: $!");
      close($c);
    }
    %ENV = map { split /=/, $_, 2 } @env;
    envelope(@rest) if $kind eq 'envelope';
    exec { $rest[0] } @rest;
    print STDERR "agent-sudo-envelope: $rest[0]: $!\n";
    exit 127;
  }
  close($_) for @w, grep { defined } $cr;
  return { pid => $pid, r => \@r, ctl => $cw };
}
# A spare's request: "LENGTH\n" and LENGTH bytes of the same NUL-separated fields; EOF first: the server is done with it.
# The pipe stays open for a gated request's release, so not a byte past the request is read here.
sub read_request {
  my ($h) = @_;
  my ($head, $body) = ('', '');
  while ($head !~ /\n\z/) {
    my $n = sysread($h, $head, 1, length $head);
    next if !defined $n && $! + 0 == 4;
    exit 0 unless $n;
    exit 125 if length($head) > 12;
  }
  my ($len) = $head =~ /\A(\d+)\n\z/ or exit 125;
  while (length($body) < $len) {
    my $n = sysread($h, $body, $len - length($body), length $body);
    next if !defined $n && $! + 0 == 4;
    exit 0 unless $n;
  }
  return split /\0/, $body, -1;
}
sub start_kid {
  my ($id, $kind, $procs, $caps, $gate, $nenv, @rest) = @_;
  my @fields = ($kind, $procs, $caps, $gate, $nenv, @rest);
  my @cap = map { 0 + ($_ // 0) } split /,/, ($caps // '');
  if (($kind // '') eq 'xattrs') { put('O', $id, xattrs(@rest[($nenv // 0) .. $#rest])); put('X', $id, 'exit 0'); return }
  return refuse($id, 'bad request') unless @rest > ($nenv // 0) && $kind =~ /\A(?:envelope|exec|plain)\z/;
  return refuse($id, 'bad request: only an envelope waits for a release') if $gate && $kind ne 'envelope';
  # An envelope with its own pid namespace: the child is born as its pid 1 (one fork, not two).
  my $pidns = 0;
  if ($kind eq 'envelope') {
    for my $w (@rest[($nenv // 0) .. $#rest]) { last if $w eq '--'; $pidns = 1 if $w =~ /\Ans=/ && grep { $_ eq 'pid' } split /,/, substr($w, 3) }
  }
  my $k;
  if ($pidns && $spare) {
    ($k, $spare) = ($spare, undef);
    my $payload = join("\0", @fields);
    # It died before its request (EPIPE): its exit is reaped as nobody's; a fresh child takes the request.
    if (!write_all($k->{ctl}, length($payload) . "\n" . $payload)) { close($_) for $k->{ctl}, @{$k->{r}}; undef $k }
    elsif (!$gate) { close($k->{ctl}); delete $k->{ctl} }
  }
  if (!$k) {
    $k = new_kid($pidns, $kind eq 'plain', \@fields, $gate);
    return refuse($id, $k) unless ref $k;
  }
  my ($pid, $r) = ($k->{pid}, $k->{r});
  $kid{$pid} = { id => $id, open => 3, procs => $procs, ($k->{ctl} ? (gate => $k->{ctl}) : ()) };
  # Output past its cap (+1 byte: the caller sees it was cut) is read and dropped here, not relayed.
  $fd{fileno($r->[$_])} = [$pid, (qw(O E S))[$_], $r->[$_], ($cap[$_] // 0) > 0 ? $cap[$_] + 1 : -1] for 0 .. 2;
  put('P', $id, $pid);
  $want_spare ||= $pidns;    # a server never asked for a pid namespace keeps no spare
}
# A gated child's release: one byte on its control pipe (a child gone already, or never gated, is left alone).
sub release {
  my ($id) = @_;
  for my $k (values %kid) {
    next unless $k->{id} eq $id && $k->{gate};
    syswrite($k->{gate}, 'G');
    close(delete $k->{gate});
  }
}
sub serve {
  my %a = map { split /=/, $_, 2 } @_;
  $S = $NR{$a{arch} // ''} or die "agent-sudo-envelope: unsupported architecture\n";
  syscall($S->{prctl}, 1, 9, 0, 0, 0);    # SIGKILL when the service that started it goes
  open($ownpidns, '<', '/proc/self/ns/pid') or die "agent-sudo-envelope: /proc/self/ns/pid: $!\n";
  # A command's exit wakes select through a pipe (a signal between waitpid and select would be lost).
  pipe($sigr, $sigw) or die "agent-sudo-envelope: pipe: $!\n";
  fcntl($sigw, 4, 04000) or die "agent-sudo-envelope: fcntl: $!\n";    # F_SETFL O_NONBLOCK
  $SIG{CHLD} = sub { syswrite($sigw, 'x') };
  $SIG{PIPE} = 'IGNORE';
  my ($in, $open) = ('', 1);
  while (1) {
    my $rin = '';
    vec($rin, 0, 1) = 1 if $open;
    vec($rin, fileno($sigr), 1) = 1;
    vec($rin, $_, 1) = 1 for keys %fd;
    my $draining = grep { defined $_->{status} } values %kid;
    my $ready = select(my $rout = $rin, undef, undef, $draining ? 0.02 : 1);
    if ($ready > 0 && $open && vec($rout, 0, 1)) {
      my $n = sysread(STDIN, $in, 65536, length $in);
      if (defined $n && $n == 0) {    # the service is gone: so is everything started for it
        kill('KILL', -$_) for keys %kid, $spare ? $spare->{pid} : ();
        exit 0;
      }
      for (;;) {
        if ($in =~ /\A(\d+) go\n/) { my $id = $1; substr($in, 0, length $&, ''); release($id); next }
        last unless $in =~ /\A(\d+) (\d+)\n/ && length($in) >= length($&) + $2;
        my ($id, $len, $hl) = ($1, $2, length $&);
        my @f = split /\0/, substr($in, $hl, $len), -1;
        substr($in, 0, $hl + $len, '');
        start_kid($id, @f);
      }
    }
    if ($ready > 0) {
      sysread($sigr, my $drop, 512) if vec($rout, fileno($sigr), 1);
      for my $f (keys %fd) {
        next unless vec($rout, $f, 1);
        my ($pid, $type, $h, $left) = @{$fd{$f}};
        my $n = sysread($h, my $buf, 65536);
        next if !defined $n && $! + 0 == 4;
        if ($n) {
          next if $left == 0;
          $buf = substr($buf, 0, $left) if $left > 0 && $n > $left;
          $fd{$f}[3] -= length $buf if $left > 0;
          put($type, $kid{$pid}{id}, $buf);
          next;
        }
        close($h);
        delete $fd{$f};
        $kid{$pid}{open}--;
      }
    }
    while ((my $pid = waitpid(-1, 1)) > 0) {    # WNOHANG
      if ($spare && $pid == $spare->{pid}) { close($_) for $spare->{ctl}, @{$spare->{r}}; undef $spare; next }
      my $k = $kid{$pid} or next;
      $k->{status} = $?;
      close(delete $k->{gate}) if $k->{gate};
      # What it left running ends with it: its process group, and its cgroup.
      kill('KILL', -$pid);
      if (length $k->{procs} && open(my $c, '>', $k->{procs} =~ s{/cgroup\.procs$}{/cgroup.kill}r)) { syswrite($c, '1'); close($c) }
      $k->{until} = now_s() + 0.25;
    }
    for my $pid (keys %kid) {
      my $k = $kid{$pid};
      next unless defined $k->{status};
      # A process that escaped every kill may hold its pipes: a moment for the output, then stop reading.
      next if $k->{open} > 0 && now_s() < $k->{until};
      for my $f (grep { $fd{$_}[0] == $pid } keys %fd) { close($fd{$f}[2]); delete $fd{$f} }
      my $s = $k->{status};
      put('X', $k->{id}, ($s & 127) ? 'signal ' . ($s & 127) : 'exit ' . ($s >> 8));
      delete $kid{$pid};
    }
    # The next spare once nothing runs and its exit is reported: its fork would take a core from a running command.
    if ($want_spare && !$spare && !%kid) { my $n = new_kid(1, 0, undef); $spare = $n if ref $n }
  }
}

if (@ARGV && $ARGV[0] eq '--serve') { shift @ARGV; serve(@ARGV) }
if (@ARGV && $ARGV[0] eq '--xattrs') {    # one-shot: "--xattrs arch=...", NUL-terminated paths on stdin
  $S = $NR{(split /=/, $ARGV[1] // '', 2)[1] // ''} or die "agent-sudo-envelope: unsupported architecture\n";
  local $/ = "\0";
  binmode STDIN;
  binmode STDOUT;
  my @p = map { chop; $_ } <STDIN>;
  print xattrs(@p);
  exit 0;
}
envelope(@ARGV);
`;

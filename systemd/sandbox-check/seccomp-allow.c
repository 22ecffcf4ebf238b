// Emulates SystemCallFilter= (allow-list, SystemCallErrorNumber=EPERM), SystemCallArchitectures=native (x86-64) and RestrictAddressFamilies= (-DFAMILIES=1,16: AF_UNIX AF_NETLINK) for systemd/sandbox-check/run.sh.
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>
static const int allowed[] = { ALLOWED };
int main(int argc, char **argv) {
  size_t n = sizeof(allowed) / sizeof(allowed[0]);
  struct sock_filter *f = calloc(n * 2 + 64, sizeof *f);
  size_t i = 0;
  f[i++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch));
  f[i++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0);
  f[i++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS);
  f[i++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
  // x32 ABI syscalls (bit 30) are not native.
  f[i++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000, 0, 1);
  f[i++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM);
#ifdef FAMILIES
  // RestrictAddressFamilies=: socket(family) outside the list -> EAFNOSUPPORT (as systemd does).
  static const int fam[] = { FAMILIES };
  size_t nf = sizeof(fam) / sizeof(fam[0]);
  f[i++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 41 /* socket */, 0, (unsigned char)(nf + 3));
  f[i++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0]));
  for (size_t k = 0; k < nf; k++) f[i++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, fam[k], (unsigned char)(nf - k), 0);
  f[i++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EAFNOSUPPORT);
  f[i++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
#endif
  for (size_t k = 0; k < n; k++) {
    f[i++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, allowed[k], 0, 1);
    f[i++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
  }
  f[i++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM);
  struct sock_fprog prog = { .len = (unsigned short)i, .filter = f };
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)) { perror("nnp"); return 127; }
  if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog)) { perror("seccomp"); return 127; }
  execvp(argv[1], argv + 1);
  perror("exec");
  return 127;
}

// Option tables (spec.ts notation) for shell builtins and trivial programs.
// What builtins evaluate (subscripts, arithmetic, mapfile -C) is judged by
// evaluated.ts; these tables only keep options that run code out:
// `compgen -C/-F` and `complete -C/-F` run a command or function,
// `jobs -x` runs a command, `history -w/-a/-r FILE` write or read a file.
const SIGNALS = "HUP INT QUIT ILL TRAP ABRT BUS FPE KILL USR1 SEGV USR2 PIPE ALRM TERM STKFLT CHLD CONT STOP TSTP TTIN TTOU URG XCPU XFSZ VTALRM PROF WINCH IO PWR SYS"
  .split(" ").flatMap((s) => [`-${s}`, `-SIG${s}`]).join(" ");

export const SHELL: Record<string, string> = {
  "echo|printf|true|false|:|test|[|[[|yes|expr|getopts|let|exit|return|sleep|usleep|set|shopt|tput|ulimit|fg|bg|logname|users|arch|tty": "@data",
  cd: "-L -P -e -@",
  "pushd|popd|dirs": "-n -c -l -p -v #",
  "break|continue|shift": "#",
  wait: "-n -f -p=",
  jobs: "-l -n -p -r -s",
  disown: "-a -h -r",
  "export": "-n -f -p",
  "declare|typeset|local": "-a -A -f -F -g -i -l -n -r -t -u -x -p -I",
  readonly: "-a -A -f -p",
  unset: "-f -v -n",
  read: "-a= -d= -e -E -i= -n= -N= -p= -r -s -t= -u=",
  "mapfile|readarray": "-d= -n= -O= -s= -t -u=",
  type: "-a -f -p -P -t",
  which: "-a -s",
  whereis: "-b -m -s -u -l -B= -M= -S= -f",
  hash: "-t -l -d",
  help: "-d -m -s",
  compgen: "-A= -G= -W= -X= -P= -S= -o= -a -b -c -d -e -f -g -j -k -s -u -v -V=",
  complete: "-p -r -D -E -I -o= -A= -G= -W= -X= -P= -S= -a -b -c -d -e -f -g -j -k -s -u -v",
  history: "-c -d= -n #",
  kill: `-s= -n= -l -L # ${SIGNALS}`,
  alias: "-p",
  umask: "-S -p",
};

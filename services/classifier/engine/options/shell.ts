// Option tables (spec.ts notation) for shell builtins and trivial programs.
// What builtins evaluate (subscripts, arithmetic, mapfile -C) is judged by
// evaluated.ts; these tables only keep options that run code out:
// `compgen -C/-F` and `complete -C/-F` run a command or function,
// `jobs -x` runs a command, `history -w/-a/-r/-n` write or read a file.
const SIGNALS =
  "HUP INT QUIT ILL TRAP ABRT BUS FPE KILL USR1 SEGV USR2 PIPE ALRM TERM STKFLT CHLD CONT STOP TSTP TTIN TTOU URG XCPU XFSZ VTALRM PROF WINCH IO PWR SYS"
    .split(" ")
    .flatMap((s) => [`-${s}`, `-SIG${s}`])
    .join(" ");

export const SHELL: Record<string, string> = {
  "echo|printf|true|false|:|test|[|[[|yes|expr|getopts|let|exit|return|sleep|usleep|set|shopt|tput|ulimit|fg|bg|logname|users|arch|tty":
    "@data",
  cd: "-L -P -e -@",
  "pushd|popd|dirs": "-n -c -l -p -v #",
  "break|continue|shift": "#",
  wait: "-n -f -p=",
  jobs: "-l -n -p -r -s",
  disown: "-a -h -r",
  export: "-n -f -p",
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
  // Not -n: it reads $HISTFILE's new lines (an inherited HISTFILE makes `history -n; history` print a history file).
  history: "-c -d= #",
  kill: `-s= -n= -l -L # ${SIGNALS}`,
  alias: "-p",
  // Wrappers and delegates: their own options, up to the command they run (judged as a command of its own).
  nice: "-n= --adjustment= @posix",
  "nohup|builtin|setsid|unbuffer|dbus-run-session|catchsegv|torsocks": "-c -f -w --ctty --fork --wait @posix",
  timeout: "-s= -k= -v -p --signal= --kill-after= --preserve-status --foreground --verbose @posix",
  time: "-p -v -f= -o=> -a -q --portability --verbose --format= --output=> --append --quiet @posix",
  exec: "-a= -c -l @posix",
  command: "-p -v -V @posix",
  stdbuf: "-i= -o= -e= --input= --output= --error= @posix",
  ionice: "-c= -n= -t -p= -P= -u= --class= --classdata= --ignore --pid= --pgid= --uid= @posix",
  flock:
    "-s -x -u -n -w= -E= -o -F -c= --shared --exclusive --unlock --nonblock --timeout= --conflict-exit-code= --close --no-fork --verbose --command= @posix",
  strace:
    "-o=> -e= -s= -f -ff -t -tt -ttt -T -c -C -y -yy -q -qq -v -x -xx -p= -a= -b= -I= -k -r -z -Z -w -D -DD -V --output=> --trace= --signal= --string-limit= --follow-forks --summary-only --decode-fds=? --quiet=? @posix",
  ltrace: "-o=> -e= -s= -f -c -C -S -t -tt -ttt -T -i -n= -p= -a= -x= -L @posix",
  taskset: "-a -c -p --all-tasks --cpu-list --pid @posix",
  numactl:
    "-C= -N= -m= -i= -p= -l --physcpubind= --cpunodebind= --membind= --interleave= --preferred= --localalloc --hardware --show @posix",
  "xvfb-run": "-a -n= -s= -f=> -e=> -p= -w= --auto-servernum --server-num= --server-args= --auth-file=> --error-file=> --wait= @posix",
  caffeinate: "-d -i -m -s -u -t= -w= @posix",
  sg: "-c= @posix",
  env: "-i -0 -u= -C= -S= -v --ignore-environment --null --unset= --chdir= --split-string= --debug --block-signal=? --default-signal=? --ignore-signal=? --list-signal-handling @posix",
  su: "-c= -l -m -p -g= -G= -w= -P --command= --login --preserve-environment --group= --supp-group= --whitelist-environment= --session-command= --pty @posix",
  runuser:
    "-u= -g= -G= -l -m -p -c= -f -w= --user= --group= --supp-group= --login --preserve-environment --command= --session-command= @posix",
  "sudo|doas|run0": `-u= -g= -p= -C= -D= -r= -t= -T= -h= -U= -E -H -n -k -K -b -S -P -i -s -l -v -V -ll --user= --group= --preserve-env=?
    --set-home --non-interactive --chdir= --login --shell --background --stdin --prompt= --list --validate --reset-timestamp
    --remove-timestamp --close-from= --command-timeout= --other-user= --role= --type= --preserve-groups @posix`,
  ssh: "-4 -6 -A -a -C -f -G -g -K -k -M -N -n -q -s -T -t -V -v -vv -vvv -X -x -Y -y -b= -c= -D= -e= -i= -J= -L= -l= -m= -O= -o= -p= -Q= -R= -S= -W= -w= -B= -E=> @posix",
  xargs: `-0 -a=< -d= -E= -e=? -I= -i=? -L= -l=? -n= -P= -p -r -s= -t -x -o --null --arg-file=< --delimiter= --eof=? --replace=?
    --max-lines=? --max-args= --max-procs= --interactive --no-run-if-empty --max-chars= --verbose --exit --open-tty --show-limits @posix`,
  watch:
    "-n= -d=? -t -b -e -g -c -x -p -w -q= --interval= --differences=? --no-title --beep --errexit --chgexit --color --exec --precise --no-wrap --equexit= --no-linewrap @posix",
  "npx|bunx": "-y --yes -p= --package= -q --quiet --no-install --prefer-offline --ignore-existing -w= --workspace= -c= --call= @posix",
  umask: "-S -p",
  enable: "-a -n -p -s -d",
  bind: "-m= -l -p -P -s -S -v -V -q= -u= -r= -X",
};

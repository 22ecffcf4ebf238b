// Option tables (spec.ts notation) for identity, processes, hardware, logs
// and storage. Left out on purpose: options that change what they show
// (smartctl -s/-o/-S/-t, sensors -s, hdparm setters, dmesg -c/-C/-D/-E/-n,
// lastlog -C/-S, journalctl --vacuum*/--rotate/--flush/--cursor-file,
// timeshift --delete*, crontab -r/-e, passwd -d/-l, blkid -c/-g/-w,
// lshw -dump, dmidecode --dump-bin, atop -w, pmap --create-rc, inxi -U,
// cryptsetup luksDump --dump-*-key, mdadm --stop/--zero-superblock).
const LVM = `-a -o= -O= -S= -v -q -c -C -m -P --all --options= --sort= --select= --units= --noheadings --nosuffix --separator= --aligned
  --binary --reportformat= --maps --colon --columns --partial --readonly --nolocking --segments --rows --unbuffered --verbose --quiet`;
const SYSTEMCTL = `-a -l -q -t= -p= -P= -n= -o= -H= -M= -r -i --all --full --quiet --no-pager --no-legend --plain --failed --user --system
  --global --type= --state= --property= --value --lines= --output= --host= --machine= --recursive --reverse --after --before
  --with-dependencies --no-ask-password --show-types --firmware-setup-is-not-used --legend= --timestamp= --check-inhibitors=`;
const SYSTEMCTL_READ =
  "status is-active is-enabled is-failed is-system-running list-units list-unit-files list-timers list-sockets list-dependencies list-jobs list-machines list-paths list-automounts show show-environment cat get-default help";
const read = (tool: string, subs: string, opts = ""): Record<string, string> => ({
  [`${tool} ${subs.split(" ").join("|")}`]: `${opts} @also=${tool}`,
});

export const SYSTEM: Record<string, string> = {
  pwd: "-L -P @inert",
  whoami: "@inert",
  id: "-a -Z -g -G -n -r -u -z --context --group --groups --name --real --user --zero @inert",
  groups: "@inert",
  who: "-a -b -d -H -l -m -p -q -r -s -t -T -u -w --all --boot --dead --heading --login --lookup --mesg --process --count --runlevel --short --time --users --writable --message @inert",
  w: "-h -u -s -f -o -i -p --no-header --no-current --short --from --old-style --ip-addr --pids @inert",
  "last|lastb":
    "-a -d -F -i -n= -R -s= -t= -w -x -f=< -p= --present= --since= --until= --limit= --fullnames --ip --system --dns --nohostname --fulltimes --time-format= --file=< #",
  lastlog: "-b= -t= -u= --before= --time= --user=",
  finger: "-l -s -p -m",
  date: "-d= -f=< -I=? -R -r=< -u --date= --file=< --iso-8601=? --rfc-email --rfc-3339= --reference=< --utc --universal --debug",
  cal: "-1 -3 -y -Y -j -m -s -w -h -v -n= -S --months= --span --sunday --monday --julian --year --twelve --week=? --color=? --vertical --iso # @inert",
  uptime: "-p -s -r --pretty --since --raw @inert",
  hostname: "-f -i -I -s -d -A -a -y --fqdn --long --ip-address --all-ip-addresses --short --domain --all-fqdns --alias",
  uname:
    "-a -s -n -r -v -m -p -i -o --all --kernel-name --nodename --kernel-release --kernel-version --machine --processor --hardware-platform --operating-system @inert",
  nproc: "--all --ignore= @inert",
  getconf: "-a -v= @inert",
  locale: "-a -m -c -k -v --all-locales --charmaps --category-name --keyword-name --verbose @inert",
  free: "-b -k -m -g -h -l -t -s= -c= -w -v --bytes --kilo --mega --giga --tera --peta --kibi --mebi --gibi --tebi --pebi --human --si --lohi --total --seconds= --count= --wide --committed --line @inert",
  vmstat:
    "-a -f -m -n -s -d -D -p= -t -w -S= -y --active --forks --slabs --one-header --stats --disk --disk-sum --partition= --timestamp --wide --unit= --no-first # @inert",
  iostat: "-c -d -h -k -m -N -p=? -t -x -y -z -o= -g= -H -j= -s --human --pretty --compact --dec= --short # @inert",
  mpstat: "-A -I= -P= -u -T -n -N= -o= --dec= # @inert",
  sar: "-A -B -b -d -F -H -I= -m= -n= -P= -q -R -r -S -u -v -W -w -y -h -p -t -f=< -s= -e= -i= -j= -o=> --human --pretty --dec= #",
  pidstat: "-d -h -H -I -l -p= -r -R -s -t -T= -u -U=? -v -w -C= -G= --dec= --human # @inert",
  dstat:
    "-a -c -C= -d -D= -g -i -I= -l -m -n -N= -p -r -s -S= -t -T -y -f --cpu --disk --io --load --mem --net --proc --swap --time --sys --vm --top-cpu --top-io --top-mem --nocolor --noheaders --noupdate --float --integer --bits --output=> #",
  lscpu:
    "-a -b -c -e=? -p=? -s= -x -y -B -C=? -J --all --online --offline --bytes --caches=? --extended=? --json --parse=? --sysroot= --hex --physical --output-all @inert",
  lsblk: `-a -b -d -D -e= -f -h -i -I= -J -l -m -n -o= -O -p -P -r -s -S -t -T=? -x= -z -E= -M -N -A -Q= -H -w= --all --bytes --nodeps
    --discard --exclude= --fs --include= --ascii --json --list --merge --noheadings --output= --output-all --paths --pairs --raw
    --inverse --topology --scsi --tree=? --sort= --zoned --dedup= --nvme --virtio --width= --filter= --highlight= --ct= --ct-filter=
    --properties-by= --sysroot= --list-columns @inert`,
  lspci: "-v -vv -vvv -n -nn -x -xxx -xxxx -b -D -P -PP -t -k -m -mm -q -qq -s= -d= -i=< -p=< -A= -H= -F=< -G -M -O= -j",
  lsusb: "-v -t -s= -d= -D=< -V -tv",
  lsmod: "@inert",
  lshw: "-short -businfo -X -html -xml -json -class= -C= -c= -disable= -enable= -quiet -sanitize -numeric -notime",
  lsmem:
    "-a -b -J -n -o= -P -r -S= -s= --all --bytes --json --noheadings --output= --output-all --pairs --raw --split= --sysroot= --summary=? @inert",
  lsns: "-J -l -n -o= -O -p= -r -t= -u -W -T=? --json --list --noheadings --output= --output-all --task= --raw --type= --notruncate --nowrap --tree=? @inert",
  lsipc: "-q -m -s -g -i= -b -c -e -J -l -n -o= -r -t -p -u -z @inert",
  lslocks:
    "-b -i -J -n -o= -O -p= -r -u --bytes --noinaccessible --json --noheadings --output= --output-all --pid= --raw --notruncate @inert",
  lsof: "-? -a -b -C -h -l -n -N -O -P -R -t -U -v -V -X -w -W -M -E -K=? -x=? -Z=? -c= -d= -D= -e= -f=? -F=? -g=? -i=? -k= -L=? -m= -o=? -p= -r=? -s=? -S=? -T=? -u= # @inert",
  sensors: "-c=< -A -u -j -f --config-file=< --no-adapter --bus-list --fahrenheit",
  dmidecode:
    "-d=< -q -s= -t= -u -H= --dev-mem=< --quiet --string= --type= --dump --from-dump=< --oem-string= --no-sysfs --no-quirks --list",
  hwinfo:
    "--short --all --cpu --disk --partition --network --netcard --usb --pci --gfxcard --monitor --memory --bios --block --storage --sound --keyboard --mouse --bluetooth --wlan --listmd --only= --verbose",
  inxi: `-A -b -B -C -d -D -E -f -F -G -i -I -j -J -l -L -m -M -n -N -o -p -P -r -R -s -S -t=? -u -v= -w -x -xx -xxx -y= -z -Z -a -c=
    --admin --audio --basic --battery --cpu --disk --optical --full --graphics --ip --info --swap --label --logical --memory --machine
    --network --partitions --processes --repos --raid --sensors --system --uuid --verbosity= --extra --filter --no-host
    --output= --width= --color=`,
  blkid:
    "-d -h -i -k -l -L= -U= -n= -o= -O= -p -s= -S= -t= -u= --match-tag= --output= --probe --info --list-one --label= --uuid= --size= --offset= --usages= --match-token= --no-part-details --list-filesystems",
  findmnt: `-A -b -c -C -D -d= -e -f -F=< -i -J -k -l -M= -m -n -N= -O= -o= -P -p=? -R -r -S= -s -T= -t= -U -u -v -w= -x -y
    --all --bytes --canonicalize --notruncate --nocanonicalize --df --direction= --evaluate --tab-file=< --first-only --invert --json
    --kernel --list --mountpoint= --mtab --noheadings --task= --options= --output= --output-all --pairs --poll=? --submounts --raw
    --types= --source= --fstab --target= --verify --verbose --shadowed --uniq --real --pseudo --timeout= --id= --uniq-id= @inert`,
  smartctl: `-a -i -H -x -A -c -j -l= -q= -d= -T= -b= -r= -n= -f= -F= -v= -P= -g= --all --info --health --xall --attributes --log=
    --capabilities --quietmode= --device= --tolerance= --badsum= --report= --nocheck= --format= --json=? --get= --presets=
    --drivedb=< --scan --scan-open --identify=?`,
  nvme: "@sub",
  "nvme list|nvme smart-log|nvme id-ctrl|nvme id-ns|nvme error-log|nvme list-subsys":
    "-o= -v -H -b -n= --output-format= --verbose --human-readable --raw-binary --namespace-id=",
  tune2fs: "-l",
  dumpe2fs: "-h -x -b -g -i -o=",
  blockdev:
    "-q -v --report --getalignoff --getbsz --getdiscardzeroes --getfra --getiomin --getioopt --getmaxsect --getpbsz --getra --getro --getsize64 --getsize --getss --getsz --getdiskseq",
  hdparm: "-I -i -g -t -T -C --direct",
  "lvs|vgs|pvs|lvdisplay|vgdisplay|pvdisplay": LVM,
  mdadm: "-D -E -Q -s -v -b -Y --detail --examine --query --scan --brief --export --verbose --test -t",
  cryptsetup: "@sub",
  "cryptsetup status|cryptsetup luksDump|cryptsetup isLuks": "-v --verbose --debug --debug-json --dump-json-metadata",
  fdisk: "-l -x -b= -u=? -o= -t= -L=? --list --list-details --bytes --output= --type= --color=? --sector-size= --units=?",
  sfdisk:
    "-l -d -V -s -J -F -r -q -X= -Y= -o= --list --dump --verify --show-size --json --list-free --quiet --output= --label= --color=? --bytes",
  parted: "-l -m -s -a= -f -j --list --machine --script --align= --fix --json",
  wipefs: "-n -J -o= -p -q -i -t= -O= --no-act --json --output= --parsable --quiet --noheadings --types=",
  sysctl: "-a -A -X -n -N -e -b -r= --all --values --names --binary --ignore --pattern=",
  modinfo:
    "-a -d -l -p -n -0 -F= -k= -b= --author --description --license --parameters --filename --null --field= --set-version= --basedir= @inert",
  dmesg:
    "-T -H -L=? -w -x -k -u -l= -f= -r -t -P -W -S -e -J -p -d -F=< -K=< --ctime --human --color=? --follow --follow-new --decode --kernel --userspace --level= --facility= --raw --notime --nopager --time-format= --reltime --since= --until= --json --show-delta --syslog --file=< --kmsg-file=<",
  journalctl: `-a -b=? -D=< -e -f -F= -g= -k -l -m -n=? -N -o= -p= -q -r -S= -t= -T= -u= -U= -x -I -M= -i=< --all --boot=? --directory=< --pager-end
    --follow --field= --grep= --case-sensitive=? --lines=? --fields --output= --priority= --quiet --reverse --since= --until= --identifier=
    --exclude-identifier= --unit= --user-unit= --user --system --catalog --list-boots --no-pager --no-hostname --no-full --full --merge
    --utc --disk-usage --header --verify --facility= --output-fields= --cursor= --after-cursor= --show-cursor --root=< --image=<
    --namespace= --machine= --file=< --dmesg --list-catalog --dump-catalog --invocation= --list-namespaces --list-invocations
    --boot-id= --truncate-newline`,
  coredumpctl:
    "@sub -1 -r -S= -U= -q -n= -F= -o=> -D=< --output=> --json= --no-pager --no-legend --reverse --since= --until= --file=< --directory=< --all",
  "coredumpctl list|coredumpctl info|coredumpctl dump": "@also=coredumpctl",
  logwatch: "--print --detail= --service= --range= --format= --hostname= --numeric --archives",
  ausearch: `-a= -c= -e= -f= -ga= -ge= -gi= -h= -i -if=< -k= -m= -n= -p= -pp= -r -sc= -se= -sv= -te= -ts= -tm= -ui= -ul= -uu= -ue= -vm= -x=
    --raw --format= --just-one --input-logs --interpret --start= --end= --message= --key= --syscall= --success= --uid= --loginuid=`,
  aureport:
    "-a -au -c -cr -e -f -h -i -if=< -k -l -m -n -p -r -s -sc -ts= -te= -t -tm -u -x -y --summary --success --failed --input-logs --node= --escape= --comm --virt --integrity --eoe-timeout= --start= --end= --interpret",
  goaccess: `-f=< -a -c -d -e= -h -H -i -j= -M -o=> -q -s -V --log-file=< --log-format= --date-format= --time-format= --output=> --no-global-config
    --ignore-crawlers --ignore-panel= --no-color --agent-list --http-method= --http-protocol= --ignore-referrer= --keep-last= --anonymize-ip
    --json-pretty-print --max-items= --hour-spec= --444-as-404 --4xx-to-unique-count --all-static-files --no-query-string -g`,
  atop: "-r=< -b= -e= -a -c -d -g -m -n -s -v -C -M -D -N -A -P= -L= -f -F -G -1 -x -R -p -u -j -l -y -Y= -S #",
  iotop:
    "-o -b -n= -d= -p= -u= -P -a -k -t -q -qq -qqq --only --batch --iter= --delay= --pid= --user= --processes --accumulated --kilobytes --time --quiet",
  nethogs: "-t -d= -v= -c= -a -p -s -b -l -C -g= -P=",
  top: "-b -c -d= -e= -E= -H -i -n= -o= -O -p= -s -S -u= -U= -w=? -1",
  htop: "-C -d= -F= -H -M -p= -s= -t -u=? -U --no-color --no-mouse --no-unicode --tree --readonly --highlight-changes=? --filter= --sort-key= --delay= --user=? --pid=",
  btop: "-lc -t -p= -u= --low-color --tty_on --tty_off --preset= --update= --utf-force",
  ps: `-A -e -a -d -N -T -r -x -C= -G= -g= -p= -q= -s= -t= -u= -U= -c -f -F -j -l -o= -O= -y -Z -M -H -L -m -w -n=
    --sort= --pid= --ppid= --user= --User= --group= --Group= --sid= --tty= --cols= --columns= --lines= --rows= --width= --headers
    --no-headers --forest --format= --context --cumulative --deselect --quick-pid= --info @bsd=aAcfhHjlLmMnrsStTuvwxXZgk`,
  pgrep: `-a -c -d= -f -g= -G= -i -l -n -o -O= -P= -r= -s= -t= -u= -U= -v -w -x -A -F=< -L --count --delimiter= --list-name --list-full
    --full --pgroup= --group= --ignore-case --newest --oldest --older= --parent= --runstates= --session= --terminal= --euid= --uid=
    --inverse --lightweight --exact --ignore-ancestors --pidfile=< --logpidfile --cgroup= --ns= --nslist= --env=`,
  pidof: "-s -c -n -x -o= -t -q -z -S= @inert",
  pstree:
    "-a -A -c -C= -g -G -h -H= -l -n -N= -p -s -S -t -T -u -U -Z --arguments --ascii --compact-not --color= --show-pgids --vt100 --highlight-all --highlight-pid= --long --numeric-sort --ns-sort= --show-pids --show-parents --ns-changes --thread-names --hide-threads --uid-changes --unicode --security-context @inert",
  pmap: "-x -X -XX -d -q -A= -c -C=< -p --extended --device --quiet --range= --read-rc --read-rc-from=< --show-path",
  "pwdx|prtstat": "-r --raw @inert",
  chrt: "-p -a -m --pid --all-tasks --max",
  fuser: "-v -u -m -M -n= -a -s -w -4 -6 --verbose --user --mount --ismountpoint --namespace= --all --silent",
  systemctl: `@sub ${SYSTEMCTL}`,
  ...read("systemctl", SYSTEMCTL_READ),
  service: "--status-all",
  "systemd-analyze":
    "@sub --system --user --global --no-pager --order --require --from-pattern= --to-pattern= --fuzz= --man=? --generators=? --root=< --image=< --offline= --threshold= --security-policy=< --json= --iterations= --base-time= --unit= --table --no-legend --quiet -H= -M= --host= --machine= --scale-svg= --detailed",
  ...read(
    "systemd-analyze",
    "time blame critical-chain plot dot dump cat-config unit-files unit-paths exit-status capability condition syscall-filter filesystems calendar timestamp timespan security verify inspect-elf image-policy has-tpm2 pcrs architectures log-level log-target service-watchdogs",
  ),
  "systemd-cgls": "-a -l -k -u= -M= -x --all --full --kernel --unit= --user-unit= --machine= --xattr= --cgroup-id= --no-pager @inert",
  "systemd-cgtop": "-b -n= -d= -p -t -c -m -i -r -P -k --batch --iterations= --delay= --order= --depth= --raw --cpu=? -M= --recursive=",
  "systemd-delta": "-t= --type= --diff=? --no-pager @inert",
  "systemd-detect-virt": "-c -v -r -q --container --vm --chroot --private-users --cvm --quiet --list --list-cvm @inert",
  timedatectl: "@sub -a -p= -H= -M= --all --property= --value --monitor --no-pager --no-ask-password --adjust-system-clock",
  ...read("timedatectl", "status show list-timezones timesync-status show-timesync"),
  hostnamectl: "@sub -H= -M= --json= --no-pager --static --transient --pretty",
  ...read("hostnamectl", "status"),
  localectl: "@sub -H= -M= --no-pager --no-convert",
  ...read(
    "localectl",
    "status list-locales list-keymaps list-x11-keymap-models list-x11-keymap-layouts list-x11-keymap-variants list-x11-keymap-options",
  ),
  loginctl: "@sub -a -l -p= -P= -n= -o= -H= -M= --all --full --property= --value --lines= --output= --no-pager --no-legend --json=",
  ...read("loginctl", "list-sessions list-users show-session show-user session-status user-status list-seats seat-status show-seat"),
  networkctl: "@sub -a -s -l -n= --all --stats --full --lines= --json= --no-pager --no-legend",
  ...read("networkctl", "status list lldp label cat"),
  resolvectl:
    "@sub -4 -6 -i= -p= -t= -c= --interface= --protocol= --type= --class= --service --cname= --search= --legend= --json= --no-pager --raw=? --validate= --synthesize= --cache= --zone= --trust-anchor= --network=",
  ...read("resolvectl", "status query statistics dns domain service"),
  busctl:
    "@sub --user --system -H= -M= --address= --show-machine --unique --acquired --activatable --match= --size= --list --quiet --verbose --json= -j --no-pager --no-legend --full --expect-reply= --augment-creds=",
  ...read("busctl", "list status introspect tree"),
  machinectl: "@sub --no-pager --no-legend -a --all -l --full --value -p= --property= -o= --output=",
  ...read("machinectl", "list list-images status show"),
  crontab: "-l -u=",
  "atq|at": "-l -q= -V",
  efibootmgr: "-v -q -V",
  bootctl: "@sub --esp-path= --boot-path= -p -x --print-esp-path --print-boot-path --no-pager --no-variables --json=",
  ...read("bootctl", "status list"),
  timeshift: "--list --list-snapshots --list-devices --snapshot-device= --scripted",
  snapper:
    "@sub -q -v -c= -t= --config= --no-dbus --utc --iso --table-style= --machine-readable= --csvout --jsonout --separator= --quiet --verbose",
  ...read("snapper", "list status diff", "-t= -a --all-configs --columns= --disable-used-space --type= -o=> --output=>"),
  btrfs: "@sub",
  "btrfs subvolume|btrfs filesystem|btrfs fi|btrfs device": "@sub",
  "btrfs subvolume list|btrfs subvolume show": "-a -c -g -o -p -q -R -s -t -u -G= -C= -r -d --sort= --raw --human-readable --iec --si",
  "btrfs filesystem df|btrfs filesystem show|btrfs filesystem usage|btrfs fi df|btrfs fi show|btrfs fi usage":
    "-b -h -H -k -m -g -t -T -d -m --raw --human-readable --iec --si --kbytes --mbytes --gbytes --tbytes --all-devices --mounted",
  "btrfs device stats": "-c -T --check --tabular",
  zfs: "@sub",
  "zfs list|zfs get": "-H -p -r -d= -o= -s= -S= -t= -j -P",
  zpool: "@sub",
  "zpool list|zpool status|zpool iostat|zpool get": "-H -P -p -g -L -v -x -D -e -i -T= -o= -l -q -r -s -t -w -y -j",
  getent: "-s= -i --service= --no-idn",
  passwd: "-S -a --status --all",
  chage: "-l -i --list --iso8601",
  faillock: "--user= --dir=<",
  lslogins: `-a -b -c -e -f -g= -L -l= -n -o= -p -r -s -u -z --acc-expiration --colon-separate --export --failed --groups= --last
    --logins= --newline --noheadings --notruncate --output= --pwd --raw --system-accs --time-format= --user-accs --context --print0`,
  members: "-a -p -s -t",
  lid: "-g -n -r",
  "update-alternatives": "--display --list --query --get-selections --verbose --quiet --altdir= --admindir=",
  "aa-status|apparmor_status":
    "--enabled --profiled --enforced --complaining --kill --special-unconfined --process-mixed --json --pretty-json --verbose --help @inert",
  getenforce: "@inert",
};

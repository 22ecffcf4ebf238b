// Option tables (spec.ts notation) for programs that print, list, hash,
// compare or change files. Left out on purpose: options that run a program
// (sort --compress-program, diff3 --diff-program, bat/ag/ack --pager,
// tar --to-command/-I/-F/--rsh-command, zip -TT, rsync -e, wdiff -a,
// vim -c/-S/-u/+cmd), that read a list of names and print them (tree
// --fromfile), that write where the effect analysis does not look (tar
// --remove-files, mlr -I, file -C, units --log).
const LS = `-a -A -b -B -c -C -d -D -f -F -g -G -h -H -i -I= -k -l -L -m -n -N -o -p -q -Q -r -R -s -S -t -T= -u -U -v -w= -x -X -Z -1
  --all --almost-all --author --escape --block-size= --ignore-backups --color=? --colour=? --directory --dired --classify=? --file-type
  --format= --full-time --group-directories-first --no-group --human-readable --si --dereference-command-line
  --dereference-command-line-symlink-to-dir --hide= --hyperlink=? --indicator-style= --inode --ignore= --kibibytes --dereference
  --literal --numeric-uid-gid --hide-control-chars --show-control-chars --quote-name --quoting-style= --reverse --recursive --size
  --sort= --time= --time-style= --tabsize= --width= --context --zero @inert`;
const SUMS = "-b -c -t -z -w --binary --check --tag --text --zero --ignore-missing --quiet --status --strict --warn @inert";
const DIFF = `-q -s -c -C= -u -U= -e -n -y -W= -l -t -T -p -F= -r -N -x= -X=< -S= -i -E -Z -b -w -B -I= -a -D= -d
  --brief --report-identical-files --context=? --unified=? --ed --rcs --side-by-side --width= --left-column --suppress-common-lines
  --paginate --expand-tabs --initial-tab --suppress-blank-empty --show-c-function --show-function-line= --label= --recursive
  --new-file --unidirectional-new-file --ignore-file-name-case --no-ignore-file-name-case --exclude= --exclude-from=< --starting-file=
  --from-file=< --to-file=< --ignore-case --ignore-tab-expansion --ignore-trailing-space --ignore-space-change --ignore-all-space
  --ignore-blank-lines --ignore-matching-lines= --text --strip-trailing-cr --color=? --palette= --minimal --horizon-lines=
  --speed-large-files --no-dereference --tabsize= --normal --ifdef= --new-group-format= --old-group-format= --changed-group-format=
  --unchanged-group-format= --line-format= --new-line-format= --old-line-format= --unchanged-line-format= --minimal`;
const ZCAT = "-c -d -f -q -v -l -t -k -S= --stdout --decompress --force --quiet --verbose --list --test --keep --suffix= @inert";
// Not gzip's -N/--name (review 27): decompressing, it names the output after the name stored in the archive (`gunzip -N
// a.gz` writes .mcp.json, .envrc or .npmrc here, whatever the archive says).
const COMPRESS = `-c -d -z -f -k -l -q -v -t -r -n -S= -1 -2 -3 -4 -5 -6 -7 -8 -9 -T= -e -F= -M= -o=> -D --stdout --to-stdout --decompress
  --uncompress --compress --force --keep --list --quiet --verbose --test --recursive --no-name --suffix= --best --fast --threads=
  --extreme --format= --rsyncable --rm --ultra --long=? --memory= --no-progress --output=> --synchronous`;
const TAR = `-c -x -t -r -u -A -d -f= -C= -v -z -j -J -Z -a -p -P -k -U -m -O -h -T=< -X=< -H= -V= -b= -i -l -W -G -S -N= -g=>
  --create --extract --get --list --append --update --catenate --concatenate --diff --compare --file= --directory= --verbose
  --gzip --gunzip --ungzip --bzip2 --xz --lzma --lzip --lzop --zstd --auto-compress --no-auto-compress --preserve-permissions
  --same-permissions --no-same-permissions --absolute-names --keep-old-files --skip-old-files --keep-newer-files --overwrite
  --overwrite-dir --no-overwrite-dir --unlink-first --recursive-unlink --touch --to-stdout --dereference --files-from=< --exclude=
  --exclude-from=< --exclude-vcs --exclude-vcs-ignores --exclude-caches --exclude-caches-all --exclude-backups --exclude-tag=
  --exclude-ignore= --wildcards --no-wildcards --anchored --no-anchored --wildcards-match-slash --ignore-case --strip-components=
  --transform= --xform= --owner= --group= --mode= --mtime= --numeric-owner --same-owner --no-same-owner --sort= --totals=?
  --one-file-system --null --no-null --no-recursion --recursion --ignore-failed-read --warning= --show-transformed-names
  --format= --posix --label= --acls --no-acls --xattrs --no-xattrs --selinux --no-selinux --blocking-factor= --record-size=
  --ignore-zeros --occurrence=? --force-local --check-links --atime-preserve=? --delay-directory-restore --verify --full-time
  --utc --quoting-style= --newer= --after-date= --newer-mtime= --sparse --hole-detection= --no-unquote --unquote
  --index-file=> --listed-incremental=> --incremental --level= --check-device --no-check-device --show-omitted-dirs
  --checkpoint=? --interactive --confirmation --preserve-order --same-order --restrict --one-top-level=? --clamp-mtime
  --keep-directory-symlink --numeric-owner --pax-option= --no-ignore-case --seek --no-seek --ignore-command-error`;

export const FILES: Record<string, string> = {
  cat: "-A -b -e -E -n -s -t -T -u -v --show-all --number-nonblank --show-ends --number --squeeze-blank --show-tabs --show-nonprinting @inert",
  tac: "-b -r -s= --before --regex --separator= @inert",
  head: "-c= -n= -q -v -z --bytes= --lines= --quiet --silent --verbose --zero-terminated # @inert",
  tail: `-c= -f -F -n= -q -s= -v -z --bytes= --follow=? --lines= --max-unchanged-stats= --pid= --quiet --silent --retry
    --sleep-interval= --verbose --zero-terminated # @inert`,
  less: `-a -A -b= -B -c -C -d -e -E -f -F -g -G -h= -i -I -j= -J -K -L -m -M -n -N -p= -P= -q -Q -r -R -s -S -u -U -V -w -W -x= -X
    -y= -z= -# --quit-at-eof --QUIT-AT-EOF --quit-if-one-screen --ignore-case --IGNORE-CASE --LONG-PROMPT --LINE-NUMBERS
    --line-numbers --RAW-CONTROL-CHARS --raw-control-chars --squeeze-blank-lines --chop-long-lines --no-init --tabs= --pattern=
    --prompt= --quiet --silent --mouse --wordwrap --use-color --incsearch --no-vbell --status-column --tilde --follow-name #`,
  more: "-d -l -f -p -c -s -u -e -n= --silent --logical --no-pause --print-over --clean-print --squeeze --plain --exit-on-eof --lines= #",
  most: "-b -c -d -k -M -s -t -w -z -C",
  "bat|batcat": `-A -p -n -l= -H= -r= -d -f -u -s -P --show-all --plain --number --language= --highlight-line= --line-range= --diff
    --force-colorization --unbuffered --squeeze-blank --style= --theme= --color= --decorations= --paging= --wrap= --tabs=
    --terminal-width= --list-languages --list-themes --map-syntax= --file-name= --italic-text= --chop-long-lines --no-paging`,
  nl: `-b= -d= -f= -h= -i= -l= -n= -p -s= -v= -w= --body-numbering= --section-delimiter= --footer-numbering= --header-numbering=
    --line-increment= --join-blank-lines= --number-format= --no-renumber --number-separator= --starting-line-number= --number-width= @inert`,
  view: "-R -M -n -b",
  "ls|dir|vdir|ll": LS,
  "exa|eza": `-1 -l -G -x -R -T -F -a -d -r -s= -D -f -h -H -i -m -n -S -t= -u -U -g -L= -I= -@ -b -B -X -Z --long --grid --across
    --recurse --tree --level= --classify=? --color=? --colour=? --icons=? --all --list-dirs --reverse --sort= --group-directories-first
    --git --git-ignore --header --links --modified --numeric --binary --bytes --blocksize --time= --accessed --created --changed
    --extended --no-permissions --no-user --no-time --no-filesize --no-icons --only-dirs --only-files --ignore-glob= --time-style=
    --group --octal-permissions --smart-group --hyperlink --absolute=? --width= --dereference --total-size @inert`,
  lsd: `-a -A -F -l -1 -R -h -d -t -S -X -v -r -L -i -g -Z --all --almost-all --classify --long --oneline --recursive --human-readable
    --tree --depth= --directory-only --permission= --size= --total-size --date= --timesort --sizesort --extensionsort
    --versionsort --no-sort --sort= --reverse --group-dirs= --group-directories-first --blocks= --classic --no-symlink
    --ignore-glob= --inode --dereference --header --icon= --icon-theme= --color= --hyperlink= @inert`,
  tree: `-a -d -l -f -x -L= -P= -I= -i -q -N -Q -p -u -g -s -h -D -F -v -t -c -U -r -n -C -X -J -A -S -H= -T= -o=>
    --gitignore --gitfile=< --ignore-case --matchdirs --metafirst --prune --info --infofile=< --filelimit= --dirsfirst --filesfirst
    --noreport --inodes --device --si --du --timefmt= --sort= --charset= --nolinks --hintro= --houtro= --noindent --version`,
  stat: "-L -f -c= -t --dereference --file-system --format= --printf= --terse --cached= @inert",
  file: `-b -c -e= -E -F= -f=< -h -i -k -l -L -m=< -n -N -p -r -s -S -z -Z -0 --mime --mime-type --mime-encoding --brief --apple
    --extension --keep-going --raw --uncompress --uncompress-noreport --dereference --no-dereference --special-files --print0
    --separator= --files-from=< --magic-file=< --exclude= --exclude-quiet= --no-buffer --no-pad --no-sandbox --preserve-date --parameter=`,
  du: `-a -b -B= -c -d= -D -h -H -k -l -L -m -P -s -S -t= -x -X=< -0 --all --apparent-size --block-size= --bytes --total --max-depth=
    --dereference-args --human-readable --si --inodes --count-links --dereference --no-dereference --null --separate-dirs --summarize
    --threshold= --time=? --time-style= --exclude-from=< --exclude= --one-file-system --files0-from=<`,
  df: "-a -B= -h -H -i -k -l -P -t= -T -x= --all --block-size= --human-readable --si --inodes --local --no-sync --sync --output=? --portability --print-type --type= --exclude-type= --total @inert",
  namei: "-l -m -n -o -v -x -Z --long --modes --nosymlinks --owners --vertical --mountpoints --context @inert",
  lsattr: "-R -V -a -d -l -p -v @inert",
  getfacl: `-a -d -c -e -E -s -R -L -P -t -n -p --access --default --omit-header --all-effective --no-effective --skip-base
    --recursive --logical --physical --tabular --numeric --absolute-names @inert`,
  realpath: `-e -m -L -P -q -s -z --relative-to= --relative-base= --canonicalize-existing --canonicalize-missing --logical --physical
    --quiet --strip --no-symlinks --zero @inert`,
  readlink:
    "-f -e -m -n -q -s -v -z --canonicalize --canonicalize-existing --canonicalize-missing --no-newline --quiet --silent --verbose --zero @inert",
  basename: "-a -s= -z --multiple --suffix= --zero @inert",
  dirname: "-z --zero @inert",
  pathchk: "-p -P --portability @inert",
  wc: "-c -m -l -L -w --bytes --chars --lines --max-line-length --words --total= --files0-from=<",
  od: `-A= -j= -N= -S=? -t= -v -w=? -a -b -c -d -f -i -l -o -s -x --address-radix= --endian= --skip-bytes= --read-bytes= --strings=?
    --format= --output-duplicates --width=? --traditional # @inert`,
  xxd: `-a -b -C -c= -E -e -g= -i -l= -n= -o= -p -r -R= -s= -u -d -ps -postscript -plain -autoskip -bits -capitalize -cols= -EBCDIC
    -groupsize= -include -len= -name= -offset= -seek= -revert -uppercase -version`,
  "hexdump|hd":
    "-b -c -C -d -o -x -e= -f=< -n= -s= -v -L=? --color=? --length= --skip= --format= --format-file=< --no-squeezing --one-byte-octal --one-byte-char --canonical --two-bytes-decimal --two-bytes-octal --two-bytes-hex",
  strings: `-a -d -f -n= -t= -e= -w -o -s= -T= -U= --all --data --print-file-name --bytes= --radix= --encoding= --include-all-whitespace
    --output-separator= --target= --unicode= # @inert`,
  "base64|base32": "-d -i -w= --decode --ignore-garbage --wrap= @inert",
  basenc:
    "-d -i -w= --decode --ignore-garbage --wrap= --base64 --base64url --base58 --base32 --base32hex --base16 --base2msbf --base2lsbf --z85 @inert",
  "md5sum|sha1sum|sha224sum|sha256sum|sha384sum|sha512sum|shasum": SUMS,
  b2sum: `${SUMS} -l= --length=`,
  cksum: `${SUMS} -a= -l= --algorithm= --length= --base64 --raw --untagged --debug`,
  sum: "-r -s --sysv @inert",
  b3sum: "-c -l= --check --quiet --length= --num-threads= --no-names --raw --keyed --derive-key= --no-mmap @inert",
  "diff|colordiff": DIFF,
  cmp: "-b -i= -l -n= -s --print-bytes --ignore-initial= --verbose --bytes= --quiet --silent @inert",
  comm: "-1 -2 -3 -z --check-order --nocheck-order --output-delimiter= --total --zero-terminated @inert",
  diff3:
    "-e -E -x -X -3 -i -m -A -a -T -L= --text --strip-trailing-cr --initial-tab --label= --merge --show-all --ed --show-overlap --easy-only --overlap-only",
  delta: `-s -n -w= --side-by-side --line-numbers --navigate --dark --light --syntax-theme= --width= --color-only --no-gitconfig
    --diff-so-fancy --hyperlinks --tabs= --wrap-max-lines= --max-line-length= --file-style= --hunk-header-style= --minus-style=
    --plus-style= --features= --keep-plus-minus-markers --word-diff-regex= --true-color=`,
  difft: `--color= --display= --context= --width= --tab-width= --syntax-highlight= --skip-unchanged --ignore-comments --missing-as-empty
    --strip-cr= --byte-limit= --graph-limit= --parse-error-limit= --exit-code --check-only --list-languages --override= --language=
    --sort-paths --background=`,
  wdiff:
    "-1 -2 -3 -h -i -l -n -p -s -t -w= -x= -y= -z= --no-deleted --no-inserted --no-common --printer --statistics --terminal --ignore-case --less-mode --avoid-wraps --start-delete= --end-delete= --start-insert= --end-insert=",
  "zcat|zless|zmore|bzcat|xzcat|lzcat|zstdcat|lz4cat": ZCAT,
  "gzip|gunzip|bzip2|bunzip2|xz|unxz|zstd|unzstd|lz4": COMPRESS,
  unzip: "-l -v -t -z -Z -1 -2 -s -m -h -T -x -d=> -o -n -q -qq -j -C -L -U -X -K -a -aa -b -B -V -M -p -c -f -u -P=",
  zipinfo: "-1 -2 -s -m -l -v -h -M -t -T -z -C -x",
  tar: `${TAR} @oldstyle`,
  zip: "-r -q -v -j -D -0 -1 -2 -3 -4 -5 -6 -7 -8 -9 -x -i -u -f -d -m -y -X -l -o -e -P= -n= -b=> --recurse-paths --quiet",
  "7z|7za": "-y -o=> -p= -r -t= -m= -x= -i= -bb -bd -ba -slt -aoa -aos -aou -aot",
  unrar: "-y -o+ -o- -p= -r -x= -n= -ad -ierr -idq -idc -idd -idn -idp -inul",
  ar: "-c -r -t -x -v -s -u -d -p -q -D -U -o -N= --help --version @oldstyle",
  cpio: "-i -o -p -t -v -d -m -u -B -c -H= -F= -E=< -O= -I=< -V --null -0 --create --extract --list --pass-through --make-directories --preserve-modification-time --unconditional --format= --verbose --quiet",
  cp: `-a -b -d -f -i -H -l -L -n -P -p -R -r -s -S= -t= -T -u -v -x -Z --archive --attributes-only --backup=? --copy-contents
    --dereference --force --interactive --link --no-clobber --no-dereference --preserve=? --no-preserve= --parents --recursive
    --reflink=? --remove-destination --sparse= --strip-trailing-slashes --symbolic-link --suffix= --target-directory=
    --no-target-directory --update=? --verbose --one-file-system --debug --keep-directory-symlink`,
  mv: `-b -f -i -n -S= -t= -T -u -v -Z --backup=? --force --interactive --no-clobber --no-copy --strip-trailing-slashes --suffix=
    --target-directory= --no-target-directory --update=? --verbose --exchange --debug`,
  rm: "-f -i -I -r -R -d -v --force --interactive=? --one-file-system --no-preserve-root --preserve-root=? --recursive --dir --verbose",
  rmdir: "-p -v --ignore-fail-on-non-empty --parents --verbose",
  unlink: "",
  touch: "-a -c -d= -f -h -m -r=< -t= --no-create --date= --no-dereference --reference=< --time=",
  mkdir: "-m= -p -v -Z --mode= --parents --verbose",
  mkfifo: "-m= -Z --mode=",
  mktemp: "-d -u -q -p= -t --directory --dry-run --quiet --suffix= --tmpdir=?",
  install: `-b -c -C -d -D -g= -m= -o= -p -s -S= -t= -T -v -Z --backup=? --compare --directory --group= --mode= --owner=
    --preserve-timestamps --strip --suffix= --target-directory= --no-target-directory --verbose`,
  ln: `-b -f -i -L -n -P -r -s -S= -t= -T -v --backup=? --directory --force --interactive --logical --no-dereference --physical
    --relative --symbolic --suffix= --target-directory= --no-target-directory --verbose`,
  rsync: `-a -v -q -r -R -b -u -l -L -k -K -H -p -E -A -X -o -g -D -t -O -J -S -n -W -x -c -z -h -i -P -m -y -I -C -0 -4 -6
    --archive --verbose --quiet --recursive --relative --backup --backup-dir=> --suffix= --update --links --copy-links --safe-links
    --hard-links --perms --executability --acls --xattrs --owner --group --devices --specials --times --omit-dir-times
    --omit-link-times --sparse --dry-run --whole-file --one-file-system --checksum --compress --compress-level= --human-readable
    --itemize-changes --progress --partial --prune-empty-dirs --delete --delete-before --delete-during --delete-after
    --delete-excluded --exclude= --include= --exclude-from=< --include-from=< --filter= --stats --size-only --ignore-existing
    --ignore-times --existing --remove-source-files --max-size= --min-size= --bwlimit= --chmod= --chown= --info= --no-perms
    --no-owner --no-group --no-times --mkpath --inplace --append --append-verify --numeric-ids --timeout= --contimeout= --list-only`,
  scp: "-3 -4 -6 -A -B -C -p -q -r -T -v -O -s -P= -l= -i= -o= -c= -J=",
  sftp: "-4 -6 -A -a -C -f -N -p -q -r -v -b=< -P= -l= -i= -o= -B= -R= -J=",
  "rename|prename|perl-rename|mmv": "-v -n -f -N -e= -E= -0 --verbose --nono --dry-run --force",
  "trash|trash-put": "-d -f -i -r -R -v --directory --force --interactive --recursive --verbose",
  "gio trash": "-f --force --empty --list --restore",
  tee: "-a -i -p --append --ignore-interrupts --output-error=? @inert",
  sponge: "-a",
  truncate: "-c -o -r=< -s= --no-create --io-blocks --reference=< --size=",
  fallocate:
    "-c -d -i -l= -n -o= -p -v -x -z --collapse-range --dig-holes --insert-range --length= --keep-size --offset= --punch-hole --posix --zero-range --verbose",
  chmod: "-c -f -v -R --changes --silent --quiet --verbose --no-preserve-root --preserve-root --recursive -r -w -x -X -s -t -rw -rwx",
  "chown|chgrp":
    "-c -f -v -R -h -H -L -P --changes --silent --quiet --verbose --dereference --no-dereference --from= --no-preserve-root --preserve-root --recursive",
  setfacl:
    "-m= -M=< -x= -X=< -b -k -n -d -R -L -P -t --modify= --modify-file=< --remove= --remove-file=< --remove-all --remove-default --no-mask --mask --default --recursive --logical --physical --test --restore=<",
  "dos2unix|unix2dos": `-i=? -n -o -q -v -f -k -s -b -r -u -l -c= -ascii -iso -7 -e -O --info=? --newfile --oldfile --quiet --verbose --force
    --keepdate --safe --keep-bom --remove-bom --add-eol --no-add-eol --allow-chown --no-allow-chown --to-stdout`,
  sd: "-p -F -f= -n= -s --preview --fixed-strings --flags= --max-replacements= --string-mode",
  "rpl|replace": "-i -w -b -q -v -s -R -x= -e -d -f -t --ignore-case --whole-words --backup --quiet --recursive --dry-run --prompt --force",
  split:
    "-a= -b= -C= -d -x -e -l= -n= -t= -u --suffix-length= --additional-suffix= --bytes= --line-bytes= --numeric-suffixes=? --hex-suffixes=? --elide-empty-files --lines= --number= --separator= --unbuffered --verbose",
  csplit:
    "-b= -f= -k -n= -s -z -q --suffix-format= --prefix= --keep-files --suppress-matched --digits= --quiet --silent --elide-empty-files",
  shuf: "-e -i= -n= -o=> -r -z --echo --input-range= --head-count= --output=> --random-source=< --repeat --zero-terminated",
  patch:
    "-p= -R -N -E -f -s -b -u -c -n -l -t -F= -i=< -o=> -d= -r=> -B= -V= -z= --strip= --reverse --forward --remove-empty-files --force --silent --quiet --backup --unified --context --dry-run --batch --input=< --output=> --directory= --reject-file=> --ignore-whitespace --no-backup-if-mismatch --verbose --fuzz= --binary",
  dd: "@data",
  "vim|vi|nvim": "-R -M -m -n -b -d -o=? -O=? -p=? -r -L -e -E -s -N -C -l -Z -y -x @pluscmd",
  nano: "-B -C=> -E -I -L -N -R -S -T= -U -W -Y= -c -i -l -m -q -r= -t -v -w -x -A",
  emacs: "-nw -q -Q --no-init-file --no-site-file --no-splash --no-desktop",
  micro: "-readonly= -parsecursor= -clean -options -debug",
  code: "-n -r -w -d -g -a= --new-window --reuse-window --wait --diff --goto --add= --disable-extensions",
  "ed|ex": "-s -p= -l -E -G -r --quiet --silent --prompt= --loose-exit-status --extended-regexp --traditional --restricted",
};

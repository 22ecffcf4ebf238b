// Option tables (spec.ts notation) for text filters, searches and finders.
// Left out on purpose: sort --compress-program (runs it), rg --pre (runs
// it), ack --output/--pager/--ackrc, ag --pager, ugrep --filter/--save-config,
// mlr -I (rewrites its inputs), dc -e/-f (dc's `!` runs shell commands),
// units --log/--history (write), qsv foreach/luau/py (run code), find's
// -exec/-ok/-fprint*/-fls (judged as delegates and writes, never "known").
const GREP = `-E -F -G -P -e= -f=< -i -I -y -v -w -x -c -L -l -m= -o -q -s -b -H -h -n -T -Z -z -A= -B= -C= -a -D= -d= -r -R -U
  --color=? --colour=? --label= --line-buffered --null-data --null --no-filename --with-filename --files-with-matches
  --files-without-match --count --only-matching --quiet --silent --no-messages --byte-offset --line-number --no-line-number
  --initial-tab --text --ignore-case --no-ignore-case --invert-match --word-regexp --line-regexp --max-count= --after-context=
  --before-context= --context= --regexp= --file=< --recursive --dereference-recursive --basic-regexp --extended-regexp
  --fixed-strings --perl-regexp --devices= --directories= --binary --binary-files= --exclude= --exclude-from=< --exclude-dir=
  --include= #`;
const JQ = `-n -r -j -a -c -C -M -s -S -e -R -f=< -L= --tab --indent= --arg= --argjson= --slurpfile= --rawfile= --args --jsonargs
  --from-file=< --seq --stream --stream-errors --ascii-output --compact-output --color-output --monochrome-output --raw-output
  --raw-output0 --join-output --null-input --raw-input --slurp --sort-keys --exit-status --unbuffered --binary`;
const FIND_TESTS = `-name= -iname= -path= -ipath= -wholename= -iwholename= -regex= -iregex= -regextype= -type= -xtype= -size= -empty
  -newer=< -anewer=< -cnewer=< -newermt= -newerct= -newerat= -newerBt= -newermm=< -newercm=< -mtime= -mmin= -atime= -amin= -ctime= -cmin= -used= -user= -group= -uid= -gid= -nouser -nogroup
  -perm= -links= -inum= -samefile=< -lname= -ilname= -readable -writable -executable -fstype= -context= -true -false
  -maxdepth= -mindepth= -depth -d -mount -xdev -noleaf -ignore_readdir_race -noignore_readdir_race -follow -daystart -warn -nowarn
  -print -print0 -printf= -ls -prune -quit -delete -fprint=> -fprint0=> -fprintf=> -fls=> -not -and -or -a -o -H -L -P -D= -O=`;

export const TEXT: Record<string, string> = {
  cut: "-b= -c= -d= -f= -n -s -z --bytes= --characters= --delimiter= --fields= --complement --only-delimited --output-delimiter= --zero-terminated @inert",
  tr: "-c -C -d -s -t --complement --delete --squeeze-repeats --truncate-set1 @inert",
  sort: `-b -d -f -g -i -M -h -n -R -r -V -c -C -m -s -u -z -k= -t= -S= -T=> -o=> --parallel= --batch-size= --random-source=<
    --files0-from=< --debug --check=? --key= --field-separator= --buffer-size= --temporary-directory=> --output=> --stable --unique
    --zero-terminated --ignore-leading-blanks --dictionary-order --ignore-case --general-numeric-sort --ignore-nonprinting
    --month-sort --human-numeric-sort --numeric-sort --random-sort --reverse --version-sort --merge --sort=`,
  uniq: `-c -d -D -f= -i -s= -u -w= -z --count --repeated --all-repeated=? --skip-fields= --ignore-case --skip-chars= --unique
    --check-chars= --zero-terminated --group=? #`,
  fold: "-b -s -w= --bytes --spaces --width= # @inert",
  fmt: "-c -p= -s -t -u -w= -g= --crown-margin --prefix= --split-only --tagged-paragraph --uniform-spacing --width= --goal= # @inert",
  pr: `-a -c -d -D= -e=? -F -f -h= -i=? -J -l= -m -n=? -N= -o= -r -s=? -S=? -t -T -v -w= -W= --across --show-control-chars
    --double-space --date-format= --expand-tabs=? --form-feed --header= --output-tabs=? --join-lines --length= --merge
    --number-lines=? --first-line-number= --indent= --no-file-warnings --separator=? --sep-string=? --omit-header
    --omit-pagination --show-nonprinting --width= --page-width= --columns= # @inert`,
  column: `-t -s= -o= -c= -x -n -N= -R= -T= -E= -H= -O= -W= -J -l= -L -r= -d -e -i= -p= -S= --table --separator= --output-separator=
    --columns= --fillrows --table-columns= --table-name= --json --output-width= --keep-empty-lines --table-noheadings --table-right=
    --table-truncate= --table-wrap= --table-hide= --table-order= --tree= --tree-id= --tree-parent= @inert`,
  "expand|unexpand": "-i -t= -a --initial --tabs= --all --first-only # @inert",
  rev: "-0 --zero @inert",
  paste: "-d= -s -z --delimiters= --serial --zero-terminated @inert",
  join: "-a= -e= -i -j= -o= -t= -v= -1= -2= -z --check-order --nocheck-order --header --ignore-case --zero-terminated @inert",
  look: "-a -b -d -f -t= --alphanum --ignore-case --terminate= --alternative @inert",
  numfmt:
    "-d= -z --debug --delimiter= --field= --format= --from= --from-unit= --grouping --header=? --invalid= --padding= --round= --suffix= --to= --to-unit= --zero-terminated @inert",
  tsort: "@inert",
  seq: "-f= -s= -w --format= --separator= --equal-width # @inert",
  factor: "-h --exponents # @inert",
  bc: "-i -l -q -s -w -v --interactive --mathlib --quiet --standard --warn",
  units:
    "-t -v -s -q -1 -d= -e -o= -c -f=< --terse --verbose --strict --quiet --one-line --compact --digits= --exponential --output-format= --conformable --check --check-verbose --file=<",
  iconv: "-f= -t= -c -s -l -o=> --from-code= --to-code= --list --silent --output=>",
  jq: JQ,
  gojq: `${JQ} --yaml-input --yaml-output`,
  jaq: JQ,
  // yq's -s is mikefarah yq's --split-exp (each result written to a file its expression names) and python yq's
  // --slurp: left out (--slurp stays). Not --from-file (review 27): an expression not seen here, which may
  // `load_str` a secret or print `env` (as jq -f, 2).
  "yq|xq": `-r -c -y -Y -o= -p= -P -i -e -n -M -C -I= -S -j -N --indent= --output-format= --input-format= --prettyPrint --inplace
    --null-input --exit-status --front-matter= --no-doc --header-preamble --expression= --unwrapScalar=? --arg=
    --argjson= --raw-output --tab --slurp --sort-keys --yaml-output --yaml-roundtrip --xml-output --no-colors --colors`,
  htmlq:
    "-a= -b= -B -t -w -p -f=< -o=> -r= --attribute= --base= --detect-base --text --ignore-whitespace --pretty --filename=< --output=> --remove-nodes=",
  mlr: `--icsv --ocsv --csv --itsv --otsv --tsv --ijson --ojson --json --ijsonl --ojsonl --jsonl --inidx --onidx --nidx --ixtab --oxtab
    --xtab --ipprint --opprint --pprint --imd --omd --c2j --c2p --c2t --c2n --c2m --c2b --t2c --t2j --t2p --t2n --j2c --j2t --j2p
    --n2c --n2j --barred --right --ifs= --ofs= --ips= --ops= --irs= --ors= --fs= --ps= --rs= --implicit-csv-header
    --headerless-csv-output --hi --ho --allow-ragged-csv-input --from=< -n --records-per-batch= --nr-progress-mod= --ofmt=
    --fflatsep= --no-auto-flatten --no-auto-unflatten --key-color= --value-color= --no-color -M -C @posix`,
  csvlook: `-d= -t -q= -u= -b -p= -z= -e= -S -H -K= -v -l -I -y= --zero --max-rows= --max-columns= --max-column-width= --no-number-ellipsis
    --blanks --date-format= --datetime-format= --no-inference --snifflimit= --delimiter= --tabs --quotechar= --quoting= --doublequote
    --escapechar= --maxfieldsize= --encoding= --locale= --skipinitialspace --no-header-row --skip-lines= --linenumbers @inert`,
  "xsv|qsv": "@sub",
  "xsv count|xsv headers|xsv select|xsv search|xsv slice|xsv sort|xsv stats|xsv table|xsv flatten|xsv frequency|xsv fmt|xsv sample|xsv cat|xsv input":
    "-d= -n -s= -i -l= -e= -w= -c= -v -R -N -o=> -j= -p= --delimiter= --no-headers --select= --output=> --index= --len= --end= --start= --limit= --everything --reverse --numeric --ignore-case --invert-match --jobs= --out-delimiter= --separator= --condense= --pad= --width=",
  "qsv count|qsv headers|qsv select|qsv search|qsv slice|qsv sort|qsv stats|qsv table|qsv flatten|qsv frequency|qsv fmt|qsv sample|qsv cat|qsv input":
    "-d= -n -s= -i -l= -e= -w= -c= -v -R -N -o=> -j= -p= --delimiter= --no-headers --select= --output=> --index= --len= --end= --start= --limit= --everything --reverse --numeric --ignore-case --invert-match --jobs= --out-delimiter= --separator= --condense= --pad= --width=",
  "grep|egrep|fgrep|zgrep": GREP,
  rg: `-e= -f=< -i -S -s -v -w -x -F -n -N -l -c -o -r= -A= -B= -C= -g= -t= -T= -u -. -H -I -p -m= -d= -M= -U -P -a -z -0 -b -j= -q -L -E= -V
    --count-matches --replace= --glob= --iglob= --type= --type-not= --type-list --type-add= --hidden --no-ignore --no-ignore-vcs
    --no-ignore-dot --no-ignore-parent --no-ignore-global --no-ignore-exclude --no-ignore-files --files --files-with-matches
    --files-without-match --with-filename --no-filename --heading --no-heading --color= --colors= --json --vimgrep --pretty
    --max-count= --max-depth= --maxdepth= --max-filesize= --max-columns= --max-columns-preview --multiline --multiline-dotall
    --pcre2 --engine= --text --search-zip --null --null-data --byte-offset --column --no-column --line-number --trim --sort=
    --sortr= --stats --threads= --quiet --follow --one-file-system --smart-case --case-sensitive --ignore-case --word-regexp
    --line-regexp --invert-match --fixed-strings --context-separator= --field-match-separator= --path-separator= --passthru
    --no-messages --debug --trace --glob-case-insensitive --ignore-file=< --no-config --crlf --encoding= --only-matching
    --include-zero --no-unicode --regexp= --file=< --after-context= --before-context= --context= --count --unrestricted`,
  ag: `-i -s -S -v -w -Q -l -L -c -o -A= -B= -C= -G= -g= -u -U -f -z -t -a -m= -W= -0 -r -n -p=< --ignore= --ignore-dir= --hidden --depth=
    --nocolor --color --noheading --nogroup --column --vimgrep --files-with-matches --files-without-matches --count --literal
    --case-sensitive --ignore-case --smart-case --word-regexp --only-matching --search-zip --stats --silent --max-count= --width=
    --print-long-lines --nobreak --nofilename --filename --null --parallel --recurse --norecurse --one-device --skip-vcs-ignores
    --unrestricted --all-types --follow --path-to-ignore=< --file-search-regex= --heading --break #`,
  ack: `-i -I -S -v -w -Q -l -L -c -o -h -H -A= -B= -C= -k -f -g= -t= -r -R -n -m= -1 -s -x --known-types --type= --no-recurse
    --sort-files --color --nocolor --nogroup --group --column --nocolumn --match= --ignore-dir= --noignore-dir= --ignore-file=
    --ignore-case --smart-case --word-regexp --literal --files-with-matches --files-without-matches --count --noenv --flush
    --max-count= --heading --noheading --break --nobreak --filter --nofilter #`,
  ugrep: `${GREP} -g= -t= -Q -j -k -K= -O= -Y -% -+ --glob= --file-type= --ignore-files=? --hidden --no-hidden --smart-case --fuzzy=?
    --bool --and= --not= --tree --heading --no-heading --pretty --json --csv --xml --sort=? --stats --depth= --max-files=`,
  pcregrep:
    "-i -v -w -x -c -l -L -n -o -r -h -H -e= -f=< -A= -B= -C= -M -s -q -u -N= -F -a --include= --exclude= --exclude-dir= --color=? --buffer-size= --label= --line-buffered --recursive --count #",
  sift: "-i -n -r -w -x -v -l -L -c -e= -A= -B= -C= -z --files --git --no-color --color --binary-skip --exclude-dirs= --ext= --targets",
  find: `${FIND_TESTS}`,
  "fd|fdfind": `-H -I -u -s -i -g -F -a -l -L -p -0 -d= -t= -e= -E= -S= -j= -c= -o= -1 -q --hidden --no-ignore --no-ignore-vcs --unrestricted
    --case-sensitive --ignore-case --glob --regex --fixed-strings --absolute-path --list-details --follow --full-path --print0
    --max-depth= --min-depth= --exact-depth= --type= --extension= --exclude= --size= --changed-within= --changed-before=
    --owner= --threads= --max-results= --color= --base-directory= --search-path= --strip-cwd-prefix=? --prune --one-file-system
    --show-errors --quiet --format= --ignore-file=< --no-ignore-parent --path-separator=`,
  "locate|plocate|mlocate":
    "-A -b -c -e -i -l= -n= -q -r= -w -0 -S -d= --all --basename --count --existing --ignore-case --limit= --null --quiet --regex= --regexp= --wholename --statistics --database= #",
  "sed|gsed": `-n -e= -f=< -E -r -s -u -z -l= -b --quiet --silent --expression= --file=< --regexp-extended --separate --unbuffered
    --null-data --zero-terminated --line-length= --posix --sandbox --debug --follow-symlinks --binary -i=? --in-place=?`,
  "awk|gawk|mawk|nawk": `-F= -v= -e= -b -c -C -d=?> -D=? -g -h -L=? -M -n -N -O -p=?> -P -r -s -S -t -V --field-separator= --assign=
    --source= --characters-as-bytes --traditional --copyright --gen-pot --lint=? --bignum --use-lc-numeric --non-decimal-data
    --optimize --posix --re-interval --no-optimize --sandbox --lint-old --version --dump-variables=?> --profile=?> --pretty-print=?>`,
  // Not man's -l/--local-file or -M/--manpath (review 27): a roff file from the workspace or another tree is rendered,
  // and its `.so FILE` requests include any file (groff's safer mode keeps .so): `man -l x.1` prints ~/.ssh/id_rsa.
  "man|info|apropos|whatis":
    "-a -f -k -w -W -d -D -c -7 -E= -i -I -K -L= -m= -r= -S= -s= -e= -t -Z -u -R= --all --whatis --apropos --where --where-cat --path --debug --regex --wildcard --names-only --exact --sections= --locale= --encoding= --ascii --update --no-hyphenation --no-justification --global-apropos --ignore-case --match-case --long --and --usage --output=> --subnodes --index-search= --node= --all-matches -n= -o=> --apropos= --show-options --vi-keys",
  "tldr|cheat":
    "-p= -L= -u -l -s= -r -v -e -c --platform= --language= --update --list --search= --raw --version --color --render= --list-platforms",
  "pydoc|pydoc3": "-k",
  perldoc: "-f= -q= -v= -a= -l -m -t -u -T -r -i -D",
  ri: "-T -a -i -f= --no-pager --format= --all --interactive --list --no-standard --system --site --home --gems",
  printenv: "-0 --null",
};

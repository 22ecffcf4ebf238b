// Option tables (spec.ts notation) for the workspace's build, test, lint and
// format tools (tier 1: they run the project's own code) and the report-only
// checkers (tier 0). Only common options are listed; anything else goes to
// the sandbox (2). Left out on purpose: options that load code from a path
// of the caller's choosing (gcc -B/-wrapper/-fplugin/-specs/-Wl,/-Wp,/-Wa,,
// node -r/--require/--import/--loader, pytest -p, eslint --rulesdir/--plugin,
// markdownlint --rules, make -I/--eval, tsc --plugins), and options that write
// outside the effect analysis's view.
const CC = `@atfile -c -S -E -o=> -O -O0 -O1 -O2 -O3 -Os -Og -Oz -Ofast -g -g0 -g1 -g2 -g3 -ggdb -Wall -Wextra -Werror -Wpedantic -pedantic -w -std= -I=
  -L= -l= -D= -U= -shared -static -fPIC -fpic -fPIE -pie -pthread -m32 -m64 -march= -mtune= -MMD -MD -MP -MM -M -MF=> -MT= -MQ= -x= -v
  -isystem= -iquote= -fsanitize= -fno-omit-frame-pointer -fsyntax-only -fno-exceptions -fno-rtti -fexceptions -fopenmp -fcolor-diagnostics
  -fdiagnostics-color=? -fstack-protector -fstack-protector-strong -fno-strict-aliasing -funroll-loops -flto -fno-common -ffreestanding
  -nostdlib -nostdinc -rdynamic -s -dumpversion -dumpmachine -print-search-dirs -print-file-name= -print-prog-name= --print-file-name=
  -Wno-unused -Wno-unused-parameter -Wno-unused-variable -Wno-unused-function -Wshadow -Wconversion -Wformat=? -Wundef -Wvla
  -Wno-error -Wno-deprecated-declarations -Wno-sign-compare -Wstrict-prototypes -Wmissing-prototypes --coverage -fprofile-arcs
  -ftest-coverage -time -save-temps -pipe -emit-llvm -target= --target= -stdlib= -fmodules -fno-builtin -ffunction-sections
  -fdata-sections -fvisibility= -include=<`;
const MAKE = `-j=? -k -s -n -B -C= -f=< -e -i -q -t -w -r -R -l=? -O=? -d -p -S --jobs=? --keep-going --silent --quiet --dry-run --just-print
  --recon --always-make --directory= --file=< --makefile=< --environment-overrides --ignore-errors --question --touch --print-directory
  --no-print-directory --no-builtin-rules --no-builtin-variables --load-average=? --output-sync=? --trace --debug=? --print-data-base
  --no-keep-going --stop`;
const JS_COMMON = `-c=< -w --config=< --watch --help --version --quiet --silent --verbose --debug --color --no-color --cwd= --ci --json`;
/** Test runners and coverage tools (c8 and nyc add @posix: they run the command after their options). */
const JS_TEST = `${JS_COMMON} --run --coverage --reporter= --bail=? -t= --testNamePattern= --testPathPattern= -u --update --updateSnapshot --ci
    --passWithNoTests --runInBand -i --maxWorkers= --silent --watchAll --detectOpenHandles --forceExit --clearCache --listTests --onlyChanged -o
    --changed=? --related --project= --environment= --globals --threads --no-threads --pool= --dir= --root= --mode= --typecheck
    --timeout= --grep= -g= --recursive --exit --spec= --no-file-parallelism --sequence.shuffle --shard= --retry=
    --reporter-option= --check-coverage --all --include= --exclude= --lines= --functions= --branches= --statements= --temp-directory=> --reports-dir=>`;
// Not ruff's --unsafe-fixes: they change what the code does, in files git may not hold (round 22).
const PYLINT = `-q -v --quiet --verbose --config=< --config-file=< --rcfile=< --select= --ignore= --extend-select= --extend-ignore= --exclude= --extend-exclude=
  --max-line-length= --line-length= -l= --diff --check --fix --no-fix --show-fixes --statistics --output-format= --format=
  --show-source --count --exit-zero --strict --no-cache --cache-dir=> --target-version= --py= --python-version= --ignore-missing-imports
  --disallow-untyped-defs --pretty --no-error-summary --show-error-codes --recursive -r --in-place -i --aggressive -a --jobs= -j= --profile=
  --skip= --settings-path= --atomic --force-exclude --include= --preview --fast --skip-string-normalization -S -x -n --disable= --enable=
  --errors-only -E --reports= --score= --max-complexity= --docstring-convention= --severity-level= --confidence-level= -lll -ll -f= -o=>
  --no-incremental --follow-imports= --warn-unused-ignores --show-column-numbers --no-color-output --html-report=> --txt-report=>
  --watch --outputjson --level= --project= -p= --pythonversion= --verifytypes= --venvpath= --stats --lib --skipunannotated --warnings
  --check-only --show-files`;
const PYTEST = `-q -v -vv -x -s -k= -m= -x --lf --ff --nf --sw --tb= -r= -l --co --collect-only --maxfail= --durations= --durations-min=
  -n= --numprocesses= --dist= --cov=? --cov-report=> --cov-fail-under= --no-cov --junitxml=> --junit-xml=> --color= --capture= --showlocals
  --last-failed --failed-first --exitfirst --strict-markers --disable-warnings -W= --no-header --no-summary -rA -ra --rootdir=
  --ignore= --deselect= --doctest-modules --import-mode= -c=< --override-ini= -o= --basetemp=> --timeout= --runxfail --maxprocesses=
  --log-level= --log-cli-level= --setup-show --fixtures --markers --version -V --help --verbose --quiet --cache-clear --lfnf= --benchmark-skip`;

export const BUILD: Record<string, string> = {
  "gcc|g++|cc|c++|clang|clang++": CC,
  "make|gmake|bmake": MAKE,
  cmake:
    "-S= -B=> -G= -D= -U= -C=< -E= --build=> --install= --preset= --target= -t= --config= -j= --parallel=? --clean-first --verbose -v --fresh --list-presets=? --workflow -L -LA -LH -N -Wno-dev -Wdev --log-level= --graphviz=> --system-information --version",
  ctest:
    "--test-dir= -C= --build-config= -R= --tests-regex= -E= --exclude-regex= -L= --label-regex= -LE= --label-exclude= -j= --parallel=? --output-on-failure -V -VV --verbose --extra-verbose -N --show-only=? --rerun-failed --timeout= --repeat= --repeat-until-fail= --schedule-random --stop-on-failure -T= --no-tests= -I= --progress -Q --quiet --output-junit=> -O=> --output-log=>",
  ninja: "-C= -f=< -j= -k= -l= -n -v -d= -t= -w= --verbose --quiet --version",
  // meson's subcommands take options after them (`meson test --wrapper=CMD` runs CMD: not listed); others are unknown.
  meson: "@sub -v --version -h --help",
  "meson setup|meson configure":
    "-C= --buildtype= --prefix= -D= --reconfigure --wipe --backend= --werror --warnlevel= --native-file=< --cross-file=< --default-library= --optimization= --debug --unity= --layout= --fatal-meson-warnings --strip -h --help",
  "meson compile": "-C= -j= --jobs= -v --verbose --clean -l= --load-average= -h --help",
  "meson test":
    "-C= --suite= --no-suite= --no-rebuild --print-errorlogs --setup= -j= --num-processes= -v --verbose --list --repeat= -t= --timeout-multiplier= --maxfail= -q --quiet --benchmark --no-stdsplit --logbase= -h --help",
  "meson introspect":
    "--targets --tests --benchmarks --buildoptions --dependencies --installed --projectinfo --buildsystem-files -a --all -i --indent -f --force-object-output -h --help",
  "clang-format":
    "-i -n --dry-run --Werror --style= --assume-filename= --fallback-style= --sort-includes --lines= --offset= --length= --dump-config --verbose -output-replacements-xml --ferror-limit=",
  "clang-tidy":
    "-checks= --checks= -p= -fix --fix --fix-errors -header-filter= --header-filter= -quiet --quiet -extra-arg= --extra-arg= -export-fixes=> --export-fixes=> -list-checks --list-checks -warnings-as-errors= --use-color -format-style= --format-style=",
  objdump:
    "-d -D -S -s -t -T -r -R -h -x -f -p -a -g -e -l -C -w -z -M= -j= -b= -m= --disassemble=? --disassemble-all --source --full-contents --syms --dynamic-syms --reloc --dynamic-reloc --section-headers --headers --all-headers --file-headers --private-headers --demangle=? --no-show-raw-insn --start-address= --stop-address= --section= --wide --line-numbers --visualize-jumps=?",
  nm: "-a -A -B -C -D -g -j -l -n -o -p -P -r -S -s -t= -u -U -v -V -W --debug-syms --print-file-name --demangle=? --dynamic --defined-only --extern-only --line-numbers --numeric-sort --no-sort --portability --reverse-sort --print-size --print-armap --radix= --undefined-only --size-sort --format= --special-syms --with-symbol-versions --without-symbol-versions @atfile",
  readelf:
    "-a -h -l -S -g -t -e -s -n -r -u -d -V -A -I -x= -p= -R= -z -w -W -C --all --file-header --program-headers --segments --section-headers --sections --section-groups --section-details --headers --syms --symbols --dyn-syms --notes --relocs --unwind --dynamic --version-info --arch-specific --histogram --hex-dump= --string-dump= --relocated-dump= --decompress --debug-dump=? --wide --demangle=? @atfile",
  ldd: "-v -u -d -r --verbose --unused --data-relocs --function-relocs",
  size: "-A -B -G -d -o -x -t --format= --radix= --common --totals @atfile",
  strip:
    "-s -g -S -d -x -X -o=> -R= -K= -N= -v -p --strip-all --strip-debug --strip-unneeded --strip-dwo --keep-symbol= --remove-section= --preserve-dates --only-keep-debug --verbose @atfile",
  gdb: "-batch -q -n -nx -nh -quiet -silent --batch --nx --nh --quiet --args -p= --pid= -c=< --core=< -ex= --eval-command=",
  "ld|as|nasm":
    "-o=> -f= -g -l=> -I= -L= -l= -m= -s -v --version -shared -static -e= -T=< --gc-sections -z= -O= -march= --32 --64 -w -D= -F=",
  valgrind:
    "@posix --tool= --leak-check= --show-leak-kinds= --track-origins= --error-exitcode= -q -v --quiet --verbose --log-file=> --xml=? --xml-file=> --num-callers= --suppressions=< --gen-suppressions=? --trace-children=? --child-silent-after-fork=? --undef-value-errors=? --errors-for-leak-kinds= --time-stamp=? --max-stackframe= --main-stacksize= --massif-out-file=> --callgrind-out-file=> --cachegrind-out-file=> --track-fds=?",
  bazel:
    "@scripts --config= -c= --compilation_mode= --jobs= -j= -k --keep_going --verbose_failures --test_output= --nocache_test_results --test_filter= --sandbox_debug --subcommands -s --output= --noshow_progress --color= --curses= --show_timestamps",
  // bazel reads options after the targets too (`bazel test //... --run_under=/tmp/x`): no @posix (round 28).
  "bazel build|bazel test|bazel run|bazel query": "@also=bazel",
  // just's -c/--command runs a command line (with the justfile's environment), not a recipe: not listed.
  just: "@scripts -n -q -l -u -v --list --dry-run --verbose --quiet --yes --summary --unsorted --justfile=< -f=< --working-directory= -d= --show= -s= --list-heading= --list-prefix= --color=",
  "scons|task|mage|earthly":
    "@scripts -j= -k -n -Q -s -c -l --list --dry-run --verbose -v --quiet -q --yes -y --summary --justfile=< --working-directory= --dir= -d= --taskfile=< -t=< --watch -w --force -f",
  zig: "@scripts -O= -target= -mcpu= -femit-bin=> -fno-emit-bin -j= --summary= --color= -Doptimize= -Dtarget= --verbose --prefix=>",
  // `zig cc` and `zig c++` are clang: the compilers' table (no -fplugin, -fuse-ld=, -B). zig test reads options after
  // the file, and `--test-cmd` runs any program with the test binary (round 28): not listed.
  "zig cc|zig c++": CC,
  "zig test": "@also=zig --test-filter= --test-name-prefix= -lc -I= -femit-docs=?>",
  dotnet: "@sub --nologo --info --list-sdks --list-runtimes",
  "dotnet build|dotnet test|dotnet run|dotnet format|dotnet restore|dotnet clean|dotnet pack":
    "@posix -c= --configuration= -f= --framework= -r= --runtime= -o=> --output=> -v= --verbosity= --no-restore --no-build --nologo --filter= --logger= -l= --collect= --diag=> --results-directory=> --project= --verify-no-changes --include= --exclude= --severity= --interactive",
  "swift|cabal|stack|mix": "@sub",
  "swift build|swift test|swift run|cabal build|cabal test|cabal run|stack build|stack test|stack run|mix compile|mix test|mix format|mix deps.get":
    "@posix -c= --configuration= -v --verbose -j= --jobs= --filter= --parallel --fast --check-formatted --only= --exclude= --include= --trace --stale --failed --cover",
  "elixir|rebar3|erlc|crystal|v|julia|Rscript|octave": "@posix -O -O2 -o=> -v -q --verbose --quiet --version",
  // Round 28: these read options after their operands (`ghc x.hs -optl-fuse-ld=/tmp/ld`, `odin build . -out:/x`,
  // `dune build --root /tmp/x`), so their tables have no @posix. ghc's -o takes the next word only (@noglue), so
  // `-optc-fplugin=…`, `-optl-fuse-ld=…`, `-pgmc …` are options of their own, not listed; output directories are writes.
  ghc: "@noglue -O -O0 -O1 -O2 -v -q -c -o=> -Wall -Werror -threaded -rtsopts -dynamic --make --verbose --quiet --version -outputdir=> -odir=> -hidir=>",
  // dune install/uninstall (write the prefix), --root and --build-dir have no table: 2. dune exec: c-dune-exec-any.
  dune: "@sub",
  "dune build|dune test|dune runtest|dune clean|dune fmt|dune promote":
    "-j= --profile= --release -w --watch --display= --force -f --auto-promote --verbose",
  "dune exec": "@posix",
  // nim stops at the project file (the words after it are the program's); its `-opt:value` options are not
  // listed (`--out:`, `-o:`, `--gcc.exe:`, `--passC:`, `--putenv:`), except defines (`-d:release`). nim e runs NimScript.
  nim: "@sub",
  "nim c|nim cpp|nim compile|nim js|nim check|nim r|nim run|nim doc": "@posix -d= -r --run -f --forceBuild -c --compileOnly",
  // odin's `-flag:value` options (`-out:`, `-extra-linker-flags:`, `-collection:`): only optimisation modes are listed.
  odin: "@sub",
  "odin build|odin run|odin check|odin test":
    "-debug -vet -strict-style -show-timings -keep-temp-files -o:none -o:minimal -o:size -o:speed -o:aggressive",
  R: "@sub",
  "R CMD": "@posix",
  "latexmk|pdflatex|xelatex|lualatex":
    "-pdf -pdflua -pdfxe -xelatex -lualatex -interaction= -halt-on-error -file-line-error -synctex= -output-directory=> -outdir=> -jobname= -c -C -f -g -quiet -silent -cd -pv -view= -bibtex -nobibtex -dvi -ps -draftmode -8bit -no-shell-escape",
  pandoc:
    "-f= -t= -o=> -s -r= -w= -N -V= -M= --from= --to= --output=> --standalone --toc --toc-depth= --number-sections --template=< --css= --metadata= --variable= --highlight-style= --wrap= --columns= --resource-path= --self-contained --embed-resources --citeproc --bibliography=< --csl=< --reference-doc=< --mathjax --katex --shift-heading-level-by= --markdown-headings= --list-input-formats --list-output-formats --list-extensions --list-highlight-styles --eol= --tab-stop= --preserve-tabs --strip-comments --verbose --quiet --sandbox",
  hugo: "@scripts -D -E -F -s= -d=> -b= -e= -t= -w -v --buildDrafts --buildExpired --buildFuture --source= --destination=> --baseURL= --environment= --theme= --watch --minify --gc --cleanDestinationDir --verbose --quiet --logLevel=",
  // Review 31: without tables, build's and server's options were a script's arguments (`hugo build -d /root/x`: 1).
  "hugo build|hugo server|hugo serve": "@also=hugo -p= --port= --renderToDisk --disableFastRender --navigateToChanged --noHTTPCache",
  // asciidoctor's own (review 27): not -T (Ruby templates), -r (a library it loads) or -B (the base includes resolve from).
  asciidoctor:
    "-o=> -D=> -b= -d= -a= -S= -s -e -n -v -q -w -t --verbose --quiet --trace --warnings --timings --safe --safe-mode= --backend= --doctype= --attribute= --out-file=> --destination-dir=> --no-header-footer --embedded --section-numbers --failure-level=",
  "jekyll|mdbook|plantuml|dot":
    "@posix -o=> -d=> -T= -K= -b= -a= -s -v -q --verbose --quiet --destination=> --source= --safe --config=< -tsvg -tpng -Tsvg -Tpng -Tpdf",
  "convert|magick|identify|mogrify":
    "-resize= -scale= -quality= -strip -crop= -rotate= -format= -verbose -density= -colorspace= -flatten -trim -background= -gravity= -extent= -thumbnail= -auto-orient -ping -depth= -type= -compress= -sample= -geometry=",
  "ffmpeg|ffprobe":
    "-i= -y -n -f= -c= -c:v= -c:a= -codec= -vcodec= -acodec= -b:v= -b:a= -r= -s= -ss= -t= -to= -vf= -af= -an -vn -sn -map= -preset= -crf= -pix_fmt= -hide_banner -loglevel= -v= -threads= -movflags= -shortest -stats -nostats -show_format -show_streams -show_entries= -of= -print_format= -select_streams= -count_frames -show_frames -show_packets -pretty -of= -frames:v= -q:v= -ac= -ar= -aspect= -vframes= -filter_complex= -nostdin",
  exiftool: "-a -s -S -G -g -j -X -csv -n -q -r -ext= -all= -list -ver -api= -charset= -d= -short -json -b -u -e -H -l -t -T",
  "optipng|pngquant|jpegoptim|cwebp|gifsicle|svgo":
    "-o=> -q -quality= --quality= -strip --strip --force -f --ext= --skip-if-larger -m= --max= -i -O= -O1 -O2 -O3 -v --verbose -p --preserve --all-progressive -s --precision= --multipass",
  sqlfluff: "@sub",
  "sqlfluff lint|sqlfluff fix|sqlfluff format|sqlfluff parse":
    "--dialect= --templater= --rules= --exclude-rules= --format= --nofail --processes= -p= -f --force -v -vv --ignore= --config=<",
  protoc:
    "-I= --proto_path= --cpp_out=> --python_out=> --java_out=> --go_out=> --go-grpc_out=> --ts_proto_out=> --js_out=> --descriptor_set_out=> --include_imports --include_source_info --experimental_allow_proto3_optional --version",
  buf: "@sub",
  "buf lint|buf format|buf generate|buf build|buf breaking|buf ls-files|buf dep":
    "-w --write -d --diff --exit-code --error-format= --template=< --path= --exclude-path= -o=> --output=> --against= --config=<",
  "ts-proto|flatc|thrift|openapi-generator|quicktype":
    "@posix -o=> --out=> --lang= -l= -g= -i=< --gen= --python --ts --cpp --go --java --rust",
  "sass|lessc|tailwindcss|postcss":
    "-i=< -o=> -w --watch -m --minify --no-source-map --style= --load-path= -I= --source-map -c=< --config=< --content= -u= --use= --map --no-map",
  "tsc|vue-tsc|tsc-watch": `-p= -b --project= --build --noEmit --watch -w --pretty --incremental --outDir=> --declaration --emitDeclarationOnly --skipLibCheck
    --strict --target= --module= --moduleResolution= --jsx= --lib= --listFiles --listEmittedFiles --showConfig --traceResolution --noEmitOnError
    --sourceMap --resolveJsonModule --esModuleInterop --allowJs --checkJs --verbose --force --clean --dry --diagnostics --extendedDiagnostics
    --generateTrace=> --declarationDir=> --rootDir= --tsBuildInfoFile=> --preserveWatchOutput --version -v --help -h`,
  "svelte-check":
    "--workspace= --output= --watch --tsconfig=< --threshold= --fail-on-warnings --compiler-warnings= --diagnostic-sources= --ignore=",
  eslint: `${JS_COMMON} --fix --fix-dry-run --fix-type= --ext= --max-warnings= -f= --format= -o=> --output-file=> --cache --cache-location=>
    --no-eslintrc --no-config-lookup --ignore-path=< --ignore-pattern= --no-ignore --no-error-on-unmatched-pattern --report-unused-disable-directives
    --quiet --stats --print-config=< --env= --global= --parser-options= --rule= --exit-on-fatal-error --no-warn-ignored --pass-on-no-patterns`,
  prettier: `${JS_COMMON} --write -w --check -c --list-different -l --ignore-path=< --no-config --no-editorconfig --log-level= --cache
    --print-width= --tab-width= --use-tabs --no-semi --single-quote --jsx-single-quote --trailing-comma= --bracket-spacing --no-bracket-spacing
    --arrow-parens= --prose-wrap= --end-of-line= --parser= --stdin-filepath= --ignore-unknown -u --no-error-on-unmatched-pattern --find-config-path=`,
  "biome|oxlint":
    "@scripts --write --fix --apply --apply-unsafe --unsafe --reporter= --max-diagnostics= --diagnostic-level= --config-path= --changed --staged --since= --vcs-use-ignore-file= --no-errors-on-unmatched --error-on-warnings -D= -W= -A= --deny-warnings --quiet --format=",
  stylelint: `${JS_COMMON} --fix --formatter= -f= --output-file=> -o=> --max-warnings= --ignore-path=< --cache --allow-empty-input --quiet --report-needless-disables`,
  "knip|depcheck|madge|size-limit|typedoc":
    "--production --strict --reporter= --include= --exclude= --workspace= --json --circular --extensions= --ts-config=< --image=> --out=> --entryPoints= --why --ignores= --skip-missing --no-color --warning --summary --orphans --leaves",
  "vitest|ava|tap|uvu": JS_TEST,
  // The modules and files they load by these options are judged where they are (runners.ts).
  mocha: `${JS_TEST} -r= --require= --file= -u= --ui= -R=`,
  jest: `${JS_TEST} --setupFiles= --setupFilesAfterEnv= --globalSetup= --globalTeardown= --testEnvironment= --reporters= --testRunner= --testSequencer= --resolver=`,
  // c8 and nyc run the command after their options (wrappers.ts): their options end there. Their report and
  // temporary directories are written (review 31: `c8 --report-dir /root/x npm test` was 1).
  "c8|nyc": `${JS_TEST} @posix -r= -n= -x= -e= -i= --require= --extension= --src= --per-file --report-dir=> --temp-dir=> --skip-full --exclude-after-remap --clean --no-clean`,
  "playwright|cypress": "@sub",
  "playwright test|cypress run":
    "-c= --config= --project= --grep= -g= --workers= -j= --reporter= --headed --retries= --timeout= --list --update-snapshots -u --shard= --max-failures= -x --forbid-only --browser= --spec= -s= --config-file=< --env= --quiet -q --no-exit",
  "webpack|vite|rollup|esbuild|tsup|swc|babel|parcel": `${JS_COMMON} --mode= --outDir=> --out-dir=> -d=> --outfile=> --bundle --minify --sourcemap=? --platform= --format= --target= --watch
    --port= --host= --base= --dts --clean --entry= -o=> --output=> --env= --analyze --stats= --silent --no-cache --dist-dir=>`,
  "next|nuxt|astro": "@sub",
  "next build|next dev|next lint|next start|next info|nuxt build|nuxt dev|nuxt generate|nuxt prepare|astro build|astro dev|astro check|astro sync":
    "--port= -p= --hostname= -H= --turbo --turbopack --no-lint --debug --profile --dir= --fix --root= --host=",
  "storybook|concurrently|nodemon|wrangler":
    "@scripts --port= -p= --ci --quiet --no-open --kill-others -k --names= -n= --prefix-colors= -c= --success= --watch= -w= --ext= -e= --ignore= -i= --delay=",
  // `wrangler dev --remote` (and --x-remote-bindings) uploads the worker and runs it against the account's real
  // bindings (round 28): not listed.
  "wrangler dev":
    "--port= -p= --ip= --local --env= -e= --inspector-port= --live-reload --log-level= --persist-to=> --var= --define= --config=< -c=< --test-scheduled --local-protocol= --show-interactive-dev-session= --name= --compatibility-date= --compatibility-flags= --minify --no-bundle",
  "ncu|npm-check-updates":
    "--format= --target= --filter= --reject= --dep= --peer --workspaces --deep --jsonUpgraded --jsonAll --color --no-color",
  node: "--test --check -c --run= --test-reporter= --test-name-pattern= --test-only --test-concurrency= --test-timeout= --experimental-test-coverage --watch --no-warnings --enable-source-maps --version -v",
  deno: "@sub",
  // Review 27: subcommands that print or edit the workspace's manifest (their rule is js-run).
  "deno help|deno types|deno completions|deno remove|deno init": "--lib --serve --empty -h --help -q --quiet --dev -D",
  "deno test|deno fmt|deno lint|deno check|deno bench|deno doc|deno info|deno compile|deno task|deno coverage": `-A --allow-all --allow-read=? --allow-write=? --allow-net=? --allow-env=? --allow-sys=? --allow-hrtime --no-prompt -q --quiet --config=< -c=<
    --no-config --import-map=< --lock=? --no-lock --frozen=? --reload=? -r=? --no-check=? --check=? --watch --no-clear-screen --doc --filter=
    --parallel --fail-fast=? --shuffle=? --coverage=? --trace-leaks --permit-no-files --json --ignore= --ext= --output=> -o=> --target= --include=
    --exclude= --html --lcov --detailed --fix --rules-tags= --rules-include= --rules-exclude= --compact --line-width= --indent-width= --single-quote
    --prose-wrap= --no-semicolons --use-tabs --cwd= @posix`,
  "pytest|py.test": PYTEST,
  "unittest|doctest": "-v -q -f -c -b -k= -s= -p= -t= -o= --verbose --quiet --failfast --catch --buffer --durations=",
  coverage: "@sub --rcfile=<",
  "coverage run|coverage report|coverage html|coverage xml|coverage erase|coverage combine|coverage json|coverage lcov|coverage debug":
    "@posix --source= --omit= --include= -m --show-missing --fail-under= -d=> -o=> --branch --parallel-mode -p --append -a --data-file=> --precision= --skip-covered --skip-empty --format= --keep -q --quiet --rcfile=<",
  "mypy|pyright|basedpyright|ruff|black|isort|flake8|pylint|bandit|pyflakes|pycodestyle|pydocstyle|autopep8|yapf|tabnanny": PYLINT,
  "py_compile|compileall|json.tool|calendar|timeit|cProfile|pstats":
    "-q -f -l -r= -j= -x= -i=< -b -d= --quiet --sort-keys --indent= --no-ensure-ascii --compact -n= -s= -o=> -c",
  "venv|virtualenv":
    "--clear --upgrade --without-pip --system-site-packages --copies --symlinks --prompt= --upgrade-deps -p= --python= --no-download --quiet -q",
  "pre-commit": "@sub",
  "pre-commit run":
    "-a --all-files --files --from-ref= --to-ref= -s= -o= --source= --origin= --show-diff-on-failure -v --verbose --hook-stage= --color=",
  jupyter: "@sub",
  "jupyter nbconvert":
    "--to= --output=> --output-dir=> --execute --inplace --stdout --no-input --no-prompt --template= --ExecutePreprocessor.timeout= --clear-output",
  "sphinx-build":
    "-b= -M= -a -E -j= -W -q -Q -v -n -T -d=> -D= -t= --keep-going --fresh-env --write-all --jobs= --fail-on-warning --nitpicky",
  mkdocs: "@sub",
  "mkdocs build|mkdocs serve":
    "-f=< -d=> -s -c -q -v --strict --clean --dirty --site-dir=> --config-file=< --quiet --verbose -a= --dev-addr= --no-livereload",
  "hatch|pdm": "@sub",
  "hatch run|hatch build|hatch test|hatch fmt|pdm run": "@posix",
  mvn: "@scripts -q -B -o -U -e -X -T= -pl= -am -amd -P= -D= -f=< --batch-mode --offline --quiet --errors --debug --threads= --projects= --also-make --activate-profiles= --file=< --fail-at-end -fae --fail-fast -ff -N --non-recursive",
  gradle:
    "@scripts -q -i -d -s -S -x= -p= -P= -D= --offline --quiet --info --debug --stacktrace --full-stacktrace --exclude-task= --project-dir= --parallel --no-daemon --daemon --build-cache --no-build-cache --continue --dry-run -m --console= --warning-mode= --rerun-tasks --refresh-dependencies",
  "java|javac|jar|kotlinc|kotlin|scalac|clojure|clj":
    "-cp= -classpath= --class-path= -d=> -source= -target= --release= -encoding= -g -Xlint -Xlint:all -Werror -verbose -version --version -ea -Xmx= -Xms= -jar= -cf -cvf -tf -xf -tvf -e= -m= -p= --module-path= -include-runtime -M",
  "sbt|lein": "@sub",
  "sbt compile|sbt test|sbt package|sbt clean|sbt run|lein test|lein compile|lein uberjar|lein run": "@posix",
  // rake's -e/--execute, -p/--execute-print and -E/--execute-continue run Ruby code: rake has its own table (the files
  // and directories -f, -I, -r, -R and -C name are judged where they are: runners.ts).
  rake: "-f=< --rakefile=< -I= --libdir= -r= --require= -R= --rakelibdir= -C= --directory= -A -T -D -P -W -n -N -q -s -t -v -m -j= -g -G --all --tasks=? --describe=? --prereqs --where=? --dry-run --quiet --silent --trace=? --verbose --multitask --jobs=? --nosearch --no-search --system --nosystem --no-system --job-stats=? --comments --rules --suppress-backtrace= --backtrace=?",
  // Not rubocop's -A/--autocorrect-all: its unsafe corrections change what code does, in files git may not hold (round 22).
  "rspec|rubocop|phpunit|phpstan|php-cs-fixer|pest":
    "-a -x --autocorrect --format= -f= --out=> -o=> --fail-level= --parallel --only= --except= -c=< --config=< --filter= --testsuite= --group= --exclude-group= --coverage-text --coverage-html=> --no-coverage --stop-on-failure --level= -l= --memory-limit= --no-progress --error-format= --dry-run --diff --allow-risky= --using-cache= --rules= --seed= --order= --tag= -t= -e= --example= --fail-fast --only-failures --next-failure --profile=?",
  prisma: "@sub",
  "prisma generate|prisma format|prisma validate|prisma studio":
    "--schema=< --generator= --watch --no-engine --data-proxy --accelerate --port= -p=",
  "drizzle-kit": "@sub",
  "drizzle-kit generate|drizzle-kit check|drizzle-kit studio":
    "--config=< --dialect= --schema= --out=> --name= --custom --port= --host= --verbose --strict",
  "sqlc|duckdb": "@scripts -f=< --file=< -readonly -json -csv -line -list -markdown -table -box -no-stdin -c= -s= --experimental",
  "notify-send|wall|write|logger|say": "@data",
  // espeak -w FILE writes a WAV file, --phonout FILE writes phonemes, --compile writes voice data.
  espeak: "-a= -b= -g= -k= -l= -p= -s= -v= -f=< -w=> -x -X -q -m -z --stdout --stdin --ipa=? --pho --punct=? --split=? --sep=?",
  "markdownlint-cli2": "--fix --config=< --no-globs",
  cspell:
    "@scripts --no-progress --no-summary --words-only --unique -c=< --config=< --locale= --language-id= --gitignore --no-must-find-files --show-suggestions --show-context --dot --cache --quiet --color --no-color -e= --exclude=",
  "cspell lint|cspell check|cspell trace":
    "--no-progress --no-summary --words-only --unique -c=< --config=< --locale= --language-id= --gitignore --no-must-find-files --show-suggestions --show-context --dot --cache --quiet --color --no-color -e= --exclude=",
  commitlint: "--from= --to= --edit=? -e=? --last --verbose -V --config=< -g=< --cwd= --strict --help-url=",
  // turbo reads its options after the task names too (`turbo build --cache-dir=D` is `turbo run build …`); only the
  // words after `--` go to the tasks. prune writes the pruned workspace to --out-dir (default ./out).
  turbo:
    "--filter= -F= --parallel --continue --dry-run=? --graph=?> --concurrency= --force --no-cache --output-logs= --log-order= --cache-dir=> --summarize --affected --env-mode= --scope= --docker --out-dir=> --use-gitignore=?",
  nx: "@scripts --skip-nx-cache --parallel= --configuration= -c= --verbose --output-style= --projects= -p= --exclude= --all --base= --head= --watch",
  lerna: "@sub",
  "lerna run": "@posix --scope= --ignore= --stream --parallel --no-bail --concurrency= --since=",
  "golangci-lint": "@sub -v --verbose -c=< --config=<",
  "golangci-lint run":
    "--fix --timeout= --config=< -c=< --enable= -E= --disable= -D= --fast --new --new-from-rev= --out-format= --print-issued-lines --max-issues-per-linter= --max-same-issues= -v --verbose --tests --build-tags= --skip-dirs= --concurrency= -j= --allow-parallel-runners --issues-exit-code= --sort-results --path-prefix=",
  staticcheck: "-checks= -f= -fail= -go= -tags= -tests -show-ignored -explain= -debug.version -version",
  govulncheck: "-json -format= -mode= -scan= -show= -tags= -test -C=",
  gopls: "@sub",
  "gopls check|gopls format|gopls imports|gopls version|gopls stats": "-w -d -l -json",
  rustfmt: "--check --edition= --emit= --config-path=< --config= --backup -l --files-with-diff -v -q",
  autoreconf: "-i -f -v -s --install --force --verbose --symlink -I= -W= --warnings=",
  autoconf: "-o=> -v -f -I= -W= --output=> --verbose --force --include= --prepend-include= --warnings=",
  automake: "-a -c -f -v --add-missing --copy --force-missing --verbose --foreign --gnu -W= --warnings=",
  configure: "@posix",
  shellcheck:
    "-a -C=? -e= -f= -o= -P= -s= -S= -V -W= -x --check-sourced --color=? --include= --exclude= --format= --enable= --source-path= --shell= --severity= --wiki-link-count= --external-sources --norc --rcfile=< --list-optional --extended-analysis=",
  hadolint:
    "-f= -c=< -t= --format= --config=< --failure-threshold= --ignore= --trusted-registry= --no-color --no-fail --strict-labels --disable-ignore-pragma -V",
  yamllint: "-c=< -d= -f= -s --config-file=< --config-data= --format= --strict --no-warnings --list-files",
  markdownlint: "-c=< -i= -p=< -s -j -o=> --config=< --ignore= --ignore-path=< --stdin --json --output=> --dot --disable= --enable=",
  actionlint:
    "-color -no-color -format= -ignore= -oneline -verbose -debug -shellcheck= -pyflakes= -config-file=< -stdin-filename= -version",
  jsonlint: "-q -c -s -p -v -i --quiet --compact --sort-keys --pretty-print --validate=< --in-place",
  xmllint:
    "--noout --valid --dtdvalid=< --relaxng=< --schema=< --format --encode= --nowarning --quiet --noblanks --recover --xpath= --nonet",
  // -w/--write-changes: codespell and typos rewrite their operands (the working directory without one: formatters.ts).
  "checkmake|editorconfig-checker|typos|vale|codespell":
    "--config=< -c=< --format= --output= --exclude= -e= --disable= --no-color --debug -v --verbose --list-files --diff --format-type= --minAlertLevel= --ignore-words=< -L= -I=< -S= --skip= -q= --quiet-level= --count --check-filenames --check-hidden -H -f --hidden --no-check-filenames --exclude-file=< --locale= --no-exit -w --write-changes",
  // shfmt: -w rewrites its operands in place (judged as writes by tools/formatters.ts); the rest print.
  shfmt:
    "-l -w -d -s -f -p -bn -ci -sr -kp -fn -mn -i= -ln= --list --write --diff --simplify --find --posix --binary-next-line --case-indent --space-redirects --keep-padding --func-next-line --minify --indent= --language-dialect= --filename= --apply-ignore --version",
  "neofetch|fastfetch|screenfetch|duf|dust|tokei|scc|cloc|sloccount|licensee|glances|btm":
    "-d= -n= -r -p -x -s -j --json --csv --sort= --by-file --exclude-dir= --include-ext= --exclude-ext= --languages --hidden --no-color --depth= --only= --all --inodes --output= -o= -l= --files --by-percent= --quiet --wide --no-gitignore",
  "ncdu|gdu": "-o=> -n -x -q -r -e --exclude= --si --color= -x --one-file-system --no-color --non-interactive -p",
  "ctags|cscope": "-R -b -q -k -f=> -o=> -x -e --recurse --languages= --exclude= --fields= --extras= --kinds-c= --output-format= --sort=",
  tmux: "@sub -L= -S=< -f=<",
  "tmux ls|tmux list-sessions|tmux list-windows|tmux list-panes|tmux display-message|tmux show-options|tmux capture-pane":
    "-a -F= -f= -t= -s= -p -g -v -w -q -e -J -N -S= -E= -P -C",
  screen: "-ls -list -S= -r",
  zellij: "@sub",
  "zellij list-sessions": "-n -s -r --no-formatting --short --reverse",
  nginx: "-t -T -v -V -q -tq -qt -c=< -p= -e= -g=",
  "apachectl|apache2ctl": "-t -S -M -v -V -D=",
  caddy: "@sub",
  "caddy validate|caddy fmt|caddy version|caddy list-modules|caddy adapt|caddy environ":
    "--config=< --adapter= --envfile=< --diff --overwrite --pretty --validate --packages --versions --skip-standard",
  haproxy: "-c -f=< -q -V",
  traefik: "@sub",
  "traefik version": "",
  varnishadm: "@data",
  "php-fpm|php-fpm7.4|php-fpm8.1|php-fpm8.2|php-fpm8.3": "-t -tt -y=< --test --fpm-config=<",
  squid: "-k= -f=< -N",
};

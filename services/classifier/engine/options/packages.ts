// Option tables (spec.ts notation) for package managers and language
// package tools. npm takes any config key as `--key=value` (`--script-shell`,
// `--node-options`, `--git`, `--userconfig` run or load programs), so only
// the listed ones pass; likewise apt's -c/--config-file (vetoed besides),
// needrestart -r/-c, debsums -g, pip --index-url/--trusted-host stay out of
// the read forms. Script runners (yarn, pnpm, bun) are @scripts: after the
// script's name the words are the project's own script's arguments.
const APT = `-s -q -qq -y -d -f -m -u -b -V -a= -t= -o= --simulate --dry-run --just-print --no-act --recon --quiet --yes --assume-yes --assume-no
  --download-only --fix-broken --fix-missing --ignore-missing --show-upgraded --verbose-versions --host-architecture= --target-release=
  --default-release= --no-install-recommends --install-recommends --install-suggests --no-install-suggests --only-upgrade --no-upgrade
  --reinstall --allow-downgrades --allow-change-held-packages --purge --auto-remove --autoremove --with-new-pkgs --print-uris
  --list-cleanup --trivial-only --no-remove --only-source --diff-only --dsc-only --tar-only --arch-only --indep-only --mark-auto
  --installed --upgradable --all-versions --manual-installed --full --names-only --no-download --color --no-color --with-source=<`;
const APT_SUBS =
  "list show search policy depends rdepends changelog showsrc install reinstall remove purge upgrade dist-upgrade full-upgrade autoremove autopurge build-dep check satisfy source download update clean autoclean";
const NPM = `--json --long -l --parseable -p --global -g --workspace= -w= --workspaces --include-workspace-root --loglevel= -s --silent -q --quiet
  -d --verbose --no-color --color= --registry= --offline --prefer-offline --prefer-online --omit= --include= --production --dev --all -a
  --depth= --link --unicode --yes -y --no --foreground-scripts --ignore-scripts --dry-run --package-lock-only --no-audit --no-fund
  --legacy-peer-deps --strict-peer-deps --save --save-dev -D --save-exact -E --save-optional -O --save-peer --no-save --save-prod -P
  --before= --tag= --force -f --if-present --audit-level= --expect-results= --expect-result-count= --format= --sbom-format= --sbom-type=
  --install-links --no-package-lock --install-strategy= --no-progress --progress --fund --audit --no-browser
  --usage -h --prefix= --location= --scope= --init-author-name= --init-license= --init-version= --package= --call=`;
// No --python here: pip re-runs itself under that interpreter, and uv runs it to query its environment (review 26).
const PIP = `-v -q -l -o -u -e --verbose --quiet --local --outdated --uptodate --editable --user --path= --format= --not-required
  --exclude-editable --include-editable --exclude= --all --files -f --no-color --disable-pip-version-check --no-python-version-warning
  --pre --isolated --no-input --no-cache-dir --json --names-only`;
const CARGO = `-v -vv -q --verbose --quiet --color= --frozen --locked --offline -p= --package= --workspace --all --exclude= --manifest-path=<
  --features= -F= --all-features --no-default-features --target= --target-dir= --release -r --profile= -j= --jobs= --lib --bin= --bins
  --example= --examples --test= --tests --bench= --benches --all-targets --message-format= --keep-going --timings=? -Z= --no-deps
  --format-version= --depth= -e= --edges= -i= --invert= --prefix= --no-dedupe -d --duplicates --charset= -f= --format=
  --no-run --no-fail-fast --doc --check --all-files --fix --allow-dirty --allow-staged --allow-no-vcs --broken-code --edition --lib
  --vcs= --name= --bin --registry= --limit= --index= -- --nocapture --ignored --include-ignored --test-threads= --exact --show-output`;

export const PACKAGES: Record<string, string> = {
  apt: `@sub ${APT}`,
  "apt-get": `@sub ${APT}`,
  ...Object.fromEntries(["apt", "apt-get"].map((t) => [`${t} ${APT_SUBS.split(" ").join("|")}`, `@also=${t}`])),
  "apt-cache":
    "@sub -q -i -f -a -n -o= --full --names-only --all-versions --installed --recurse --no-pre-depends --no-depends --no-recommends --no-suggests --no-conflicts --no-breaks --no-replaces --no-enhances --important",
  "apt-cache policy|apt-cache show|apt-cache search|apt-cache depends|apt-cache rdepends|apt-cache madison|apt-cache pkgnames|apt-cache stats|apt-cache showpkg|apt-cache showsrc|apt-cache unmet|apt-cache dotty|apt-cache xvcg":
    "@also=apt-cache",
  "apt-file":
    "@sub -x -i -F -l -a= -I= -v -o= --regexp --ignore-case --fixed-string --package-only --architecture= --index-names= --verbose",
  "apt-file search|apt-file list|apt-file find|apt-file show": "@also=apt-file",
  "apt-mark": "@sub",
  "apt-mark showhold|apt-mark showmanual|apt-mark showauto|apt-mark showinstall|apt-mark showremove|apt-mark showpurge": "",
  "apt-config": "@sub",
  "apt-config dump": "",
  dpkg: `-l -L -s -S -p -c -I -V -C --list --listfiles --status --search --print-avail --contents --info --get-selections --print-architecture
    --print-foreign-architectures --compare-versions --audit --verify --verify-format= --admindir=< --root=< --instdir=< --no-pager --robot`,
  "dpkg-query":
    "-l -W -s -L -S -p -c -f= --list --show --status --listfiles --search --print-avail --showformat= --admindir=< --root=< --load-avail --no-pager --control-path --control-list --control-show",
  "dpkg-deb": "-c -I -f -W --contents --info --field --show --showformat= -v --verbose -D --debug",
  debsums:
    "-a -e -c -l -s -x -r= -R --all --config --changed --list-missing --silent --root=< --admindir=< --ignore-permissions --ignore-obsolete --no-locale-purge --no-prelink -p= --deb-path=",
  needrestart: "-b -l -k -w -p -q -v -n -m=",
  checkrestart: "-a -f -n -p -t -v",
  snap: "@sub",
  "snap list|snap info|snap find|snap version|snap services|snap changes|snap connections|snap interfaces|snap aliases|snap warnings|snap model|snap known":
    "--all --color= --unicode= --abs-time --verbose --channel= --private --narrow --section= --json --direct --global --system --serial --assertion --remote",
  flatpak: "@sub --user --system --installation= -v --verbose --ostree-verbose",
  "flatpak list|flatpak info|flatpak search|flatpak remotes|flatpak history|flatpak ps":
    "--app --runtime --columns= --all -a -d --show-details --arch= --show-ref --show-commit --show-origin --show-size --show-metadata --show-permissions --show-location --show-runtime --show-sdk --show-extensions -r -o -c -e -m -M -s --since= --reverse --json @also=flatpak",
  nala: "@sub --debug --verbose --color --no-color --raw",
  "nala list|nala show|nala search": "--installed --upgradable --all-versions --virtual --full --names --nala-installed --all @also=nala",
  "nala history": "@sub",
  "nala history info|nala history show": "",
  aptitude: "@sub -F= -w= -v -q -O= -s -V -D -t= -a -o= --sort= --disable-columns --simulate --show-versions --show-deps --target-release=",
  "aptitude search|aptitude show|aptitude why|aptitude why-not": "@also=aptitude",
  "apt-rdepends": "-b -d -r -p -f= -s= --build-depends --dotty --reverse --print-state --follow= --show=",
  "unattended-upgrade|unattended-upgrades": "--dry-run -d --debug -v --verbose --minimal-upgrade-steps --no-minimal-upgrade-steps",
  "ubuntu-security-status": "--thirdparty --unavailable --format=",
  lsb_release: "-a -d -r -c -i -s -v --all --description --release --codename --id --short @inert",
  npm: `@sub ${NPM}`,
  "npm ls|npm list|npm ll|npm la|npm view|npm v|npm info|npm show|npm outdated|npm audit|npm root|npm bin|npm prefix|npm whoami|npm doctor|npm search|npm explain|npm why|npm fund|npm help|npm ping|npm query|npm sbom|npm version|npm pack|npm config|npm test|npm t|npm tst|npm start|npm stop|npm restart|npm run|npm run-script|npm rum|npm urn|npm init|npm create|npm exec|npm x|npm install|npm i|npm ci|npm add|npm update|npm up|npm upgrade|npm uninstall|npm remove|npm rm|npm un|npm prune|npm dedupe|npm ddp|npm rebuild|npm link|npm cache|npm set|npm pkg":
    "@also=npm",
  "yarn|pnpm|bun": `@scripts --cwd= -C= --dir= -s --silent --verbose --json --frozen-lockfile --immutable --offline --prefer-offline --non-interactive
    --ignore-scripts --production --no-progress -w --workspace-root -r --recursive --filter= -F= --reporter= --if-present --parallel --stream
    --aggregate-output --workspace-concurrency= --no-bail --sort --fail-if-no-match -D --dev -P --prod -g --global --depth= --long`,
  "yarn list|yarn info|yarn why|yarn outdated|yarn licenses|pnpm ls|pnpm list|pnpm why|pnpm outdated|pnpm licenses|pnpm audit|bun pm":
    "--json --depth= --long -P --prod -D --dev -r --recursive --filter= --pattern= --no-progress --audit-level= --prod --parseable --all",
  "yarn config": "@sub",
  "yarn config get": "",
  "bun pm ls": "--all",
  "pip|pip3": "@sub --no-color --disable-pip-version-check --no-python-version-warning --isolated -v -q --verbose --quiet --python=",
  "pip list|pip show|pip freeze|pip check|pip index|pip inspect|pip debug|pip help|pip config|pip cache|pip3 list|pip3 show|pip3 freeze|pip3 check|pip3 index|pip3 inspect|pip3 debug|pip3 help|pip3 config|pip3 cache": `${PIP} @posix`,
  uv: "@sub -q -v --quiet --verbose --no-color --color= --offline --no-cache --directory= --project= --no-config --python= -p=",
  "uv pip": "@sub",
  "uv pip list|uv pip show|uv pip freeze|uv pip tree|uv pip check": `${PIP} @also=uv`,
  "uv version|uv tree|uv python":
    "--depth= --invert --no-dedupe --outdated --short --output-format= --all-versions --only-installed --universal @posix @also=uv",
  "uv run|uv venv|uv build|uv init": "@posix @also=uv",
  "poetry|pipenv|conda|mamba|pyenv|pipx":
    "@scripts -q -v --quiet --verbose --no-ansi --ansi --no-interaction -n --directory= -C= --json --all --tree --latest --outdated --top-level --only= --with= --without= --why --name= --prefix=",
  go: "@sub",
  // \`go env -w\`/\`-u\` write Go's env file (GOFLAGS=-toolexec=… runs a program in every later build): not on the table.
  "go env": "-json -changed @posix",
  "go version|go list|go doc|go help|go vet|go build|go test|go run|go fmt|go generate|go fix|go tool|go work|go install|go get|go clean": `-v -x -n -a -race -cover -json -m -u -e -f= -deps -test -short -count= -run= -bench= -benchmem -timeout= -tags= -o=> -ldflags= -gcflags=
    -trimpath -mod= -modfile=< -p= -cpu= -failfast -parallel= -coverprofile=> -covermode= -coverpkg= -benchtime= -shuffle= -fuzz= -fuzztime=
    -cpuprofile=> -memprofile=> -skip= -vet= -all -cmd -src -short -u -w -l -d -s -r= -buildvcs= -json=? -C= -modcacherw -overlay=<
    -buildmode= -pgo= -asan -msan -fullpath -old @posix`,
  "go mod": "@sub",
  "go mod graph|go mod why|go mod verify|go mod edit|go mod tidy|go mod init|go mod vendor|go mod download":
    "-json -print -x -v -e -m -vendor -go= -compat= -modfile=< -o=>",
  gofmt: "-l -d -s -w -e -r= -cpuprofile=>",
  goimports: "-l -d -w -e -local= -format-only -srcdir=",
  cargo: `@sub -v -q --verbose --quiet --color= --frozen --locked --offline -Z= --list --version -V`,
  "cargo tree|cargo metadata|cargo search|cargo version|cargo help|cargo locate-project|cargo pkgid|cargo verify-project|cargo read-manifest|cargo report|cargo build|cargo b|cargo check|cargo c|cargo test|cargo t|cargo run|cargo r|cargo clippy|cargo fmt|cargo doc|cargo d|cargo bench|cargo clean|cargo fix|cargo generate-lockfile|cargo fetch|cargo vendor|cargo new|cargo init|cargo nextest|cargo llvm-cov|cargo expand|cargo udeps|cargo audit|cargo deny|cargo machete|cargo outdated": `${CARGO} @posix`,
  rustc:
    "@atfile --version -V --print= -v --edition= --crate-type= --crate-name= -o=> -O -g --emit= --target= --cfg= -l= --test --explain= -W= -A= -D= --cap-lints= --error-format= --out-dir=>",
  rustup: "@sub",
  "rustup show|rustup toolchain|rustup target|rustup component": "@sub",
  "rustup which": "--toolchain=",
  "rustup doc": "--path",
  "rustup show active-toolchain|rustup show home|rustup show profile|rustup toolchain list|rustup target list|rustup component list":
    "--installed -v --verbose",
  gem: "@sub",
  "gem list|gem info|gem search|gem contents|gem which|gem env|gem spec|gem environment|gem specification":
    "-l -r -a -d -e -i -q -v= --local --remote --all --details --exact --installed --quiet --version= --prerelease",
  bundle: "@sub",
  "bundle exec": "@posix",
  "bundle check|bundle list|bundle show|bundle outdated|bundle info|bundle config":
    "--paths --name-only --strict --parseable --only-explicitly --group= --path --gemfile=< --dry-run",
  composer: "@sub --no-interaction -n --no-ansi --ansi -q -v -vv -vvv --quiet --verbose --working-dir= -d= --no-plugins --no-scripts",
  "composer show|composer outdated|composer validate|composer dump-autoload|composer test|composer run-script|composer check-platform-reqs|composer licenses|composer why":
    "-a -D -t -l -i -P -s -N -o -p --all --direct --tree --latest --installed --path --self --name-only --outdated --format= --strict --no-check-publish --optimize --classmap-authoritative --apcu --dev --no-dev -r --recursive --minor-only --major-only --patch-only --locked @posix @also=composer",
};

// Option tables (spec.ts notation) for git and the GitHub CLI. Left out on
// purpose: options that run a program (--ext-diff, --textconv, cat-file
// --filters, -e/--edit and -i/--interactive editors, help --web), that
// plant code for later (clone/init --template, clone -c/--config, apply
// --unsafe-paths), maintenance start/register (schedules jobs), lfs
// push/install/update/migrate, gh --web and the writing gh api options.
// Options that name a command (--upload-pack, --exec, -x, -O, submodule
// foreach) are judged as code by delegates.ts before any rule.
const DIFF = `-p -u -s -z -R -a -b -w -W -B=? -M=? -C=? -D -l= -U= -O=< --patch --no-patch --unified= --raw --patch-with-raw --stat=?
  --numstat --shortstat --dirstat=? --compact-summary --summary --patch-with-stat --name-only --name-status --submodule=? --color=?
  --no-color --color-moved=? --no-color-moved --color-moved-ws= --word-diff=? --word-diff-regex= --color-words=? --no-renames
  --rename-empty --no-rename-empty --check --ws-error-highlight= --full-index --binary --abbrev=? --break-rewrites=? --find-renames=?
  --find-copies=? --find-copies-harder --irreversible-delete --diff-filter= --pickaxe-all --pickaxe-regex -S= -G= --find-object=
  --relative=? --no-relative --text --ignore-cr-at-eol --ignore-space-at-eol --ignore-space-change --ignore-all-space
  --ignore-blank-lines --ignore-matching-lines= -I= --inter-hunk-context= --function-context --exit-code --quiet --no-ext-diff
  --no-textconv --ignore-submodules=? --src-prefix= --dst-prefix= --no-prefix --default-prefix --line-prefix= --ita-invisible-in-index
  --minimal --patience --histogram --anchored= --diff-algorithm= --indent-heuristic --no-indent-heuristic --stat-width= --stat-name-width=
  --stat-graph-width= --stat-count= --cached --staged --merge-base --no-index --output=> --output-indicator-new= --output-indicator-old=
  --output-indicator-context= --cc -c -m --diff-merges= --remerge-diff --dd --combined-all-paths -t --root --skip-to= --rotate-to= -1 -2 -3
  --base --ours --theirs --follow`;
const LOG = `${DIFF} -n= -i -E -F -P -L= -g --max-count= --skip= --since= --after= --until= --before= --author= --committer= --grep=
  --grep-reflog= --all-match --invert-grep --regexp-ignore-case --basic-regexp --extended-regexp --fixed-strings --perl-regexp
  --merges --no-merges --min-parents= --max-parents= --no-min-parents --no-max-parents --first-parent --exclude-first-parent-only --not
  --all --branches=? --tags=? --remotes=? --glob= --exclude= --exclude-hidden= --reflog --alternate-refs --single-worktree --ignore-missing
  --bisect --stdin --cherry-mark --cherry-pick --left-only --right-only --cherry --walk-reflogs --merge --boundary --simplify-by-decoration
  --show-pulls --full-history --dense --sparse --simplify-merges --ancestry-path=? --topo-order --date-order --author-date-order --reverse
  --no-walk=? --do-walk --format= --pretty=? --oneline --abbrev-commit --no-abbrev-commit --no-abbrev --encoding= --expand-tabs=?
  --no-expand-tabs --notes=? --no-notes --show-notes=? --show-signature --relative-date --date= --parents --children --left-right --graph
  --show-linear-break=? --decorate=? --no-decorate --decorate-refs= --decorate-refs-exclude= --source --mailmap --no-mailmap --use-mailmap
  --log-size --clear-decorations --count --objects --objects-edge --in-commit-order --timestamp --header --no-commit-id --always # `;
const GREP = `-e= -f=< -i -I -v -w -x -c -l -L -o -q -n -h -H -z -p -W -E -F -G -P -a -r -A= -B= -C= -m= --cached --untracked --no-index
  --no-exclude-standard --exclude-standard --recurse-submodules --max-depth= --threads= --text --textconv= --ignore-case --word-regexp
  --invert-match --full-name --extended-regexp --basic-regexp --perl-regexp --fixed-strings --line-number --column --files-with-matches
  --name-only --files-without-match --null --only-matching --count --color=? --no-color --break --heading --show-function
  --function-context --and --or --not --all-match --quiet --max-count= --after-context= --before-context= --context= #`;
const FETCH = `--all -a --append --depth= --deepen= --shallow-since= --shallow-exclude= --unshallow --update-shallow --dry-run --force -f
  --keep -k --multiple --prune -p --prune-tags -P --no-tags --tags -t --refmap= --jobs= -j= --recurse-submodules=?
  --no-recurse-submodules --set-upstream --quiet -q --verbose -v --progress --no-progress --ipv4 -4 --ipv6 -6 --atomic --filter=
  --negotiation-tip= --write-fetch-head --no-write-fetch-head --porcelain --auto-maintenance --no-auto-maintenance --show-forced-updates`;
const MERGE = `--no-ff --ff --ff-only --squash --no-squash --commit --no-commit -m= -F=< --no-edit -s= -X= --strategy= --strategy-option= -v -q
  --stat -n --no-stat --log=? --no-log --signoff --no-signoff --abort --continue --quit --allow-unrelated-histories --autostash
  --no-autostash --verify --no-verify -S=? --gpg-sign=? --no-gpg-sign --rerere-autoupdate --no-rerere-autoupdate --progress
  --no-progress --into-name= --cleanup= --overwrite-ignore --no-overwrite-ignore --rebase=? -r --no-rebase --verbose --quiet`;
const PICK = `-n -x -m= -s -S=? --no-commit --mainline= --signoff --continue --abort --quit --skip --ff --allow-empty --allow-empty-message
  --keep-redundant-commits --strategy= -X= --strategy-option= --gpg-sign=? --no-gpg-sign --rerere-autoupdate --no-rerere-autoupdate
  --no-edit --empty= --reference`;
const GH_READ = `-R= --repo= --json= -q= --jq= -t= --template= -L= --limit= -s= --state= -a= --author= -l= --label= -A= --assignee= -B=
  --base= -H= --head= -S= --search= --app= -c --comments --name-only --patch --color= --log --log-failed --verbose -v --exit-status
  --required --watch --interval= -i= --fail-fast -e -b= --branch= -u= --user= -w= --workflow= --event= --commit= --status= --created=
  --draft --archived --visibility= --language= --topic= --fork --source --no-archived --sort= --order= --owner= --match= --include-prs
  --milestone= --mention= --app= -O= --exclude-drafts --exclude-pre-releases --attempt= --job= --hostname= -h= --active
  --yaml --ref= --all -n --no-browser --commit=? --projects --settings --wiki --releases`;

export const GIT: Record<string, string> = {
  git: `@sub -C= -c= -P -p --no-pager --paginate --git-dir= --work-tree= --namespace= --bare --no-replace-objects --literal-pathspecs
    --glob-pathspecs --noglob-pathspecs --icase-pathspecs --no-optional-locks --no-advice --no-lazy-fetch`,
  "git status":
    "-s -b -v -z -u=? --short --branch --show-stash --porcelain=? --long --verbose --untracked-files=? --ignore-submodules=? --ignored=? --no-renames --renames --find-renames=? --column=? --no-column --ahead-behind --no-ahead-behind --null",
  "git log|git whatchanged|git rev-list|git reflog": LOG,
  "git show": `${LOG} --show-notes=?`,
  "git diff": DIFF,
  "git range-diff": `${LOG} --creation-factor= --no-dual-color --left-only --right-only --diff-merges=`,
  "git format-patch": `${LOG} -o=> --output-directory=> -N -k --stdout --cover-letter --no-cover-letter --subject-prefix= --start-number=
    --numbered-files --suffix= --attach=? --inline=? --thread=? --no-thread --in-reply-to= --to= --cc= --from=? --rfc=? -v= --reroll-count=
    --zero-commit --no-binary --ignore-if-in-upstream --interdiff= --range-diff= --progress --cover-from-description= --description-file=<
    --no-signature --signature= --signature-file=< --encode-email-headers --force-in-body-from --numbered --no-numbered`,
  "git blame|git annotate": `-L= -l -t -S=< -p -M=? -C=? -e -s -w -n -f -c -b --reverse= --porcelain --line-porcelain --incremental --encoding=
    --contents=< --date= --progress --no-progress --root --show-stats --show-number --show-name --show-email --abbrev=? --color-lines
    --color-by-age --ignore-rev= --ignore-revs-file=< --minimal --first-parent --score-debug`,
  "git rev-parse": `--short=? --abbrev-ref=? --verify -q --quiet --show-toplevel --show-prefix --show-cdup --git-dir --git-common-dir
    --absolute-git-dir --is-inside-work-tree --is-inside-git-dir --is-bare-repository --is-shallow-repository --symbolic
    --symbolic-full-name --all --branches=? --tags=? --remotes=? --glob= --exclude= --since= --after= --until= --before= --default=
    --revs-only --no-revs --flags --no-flags --sq --sq-quote --local-env-vars --resolve-git-dir --git-path= --show-superproject-working-tree
    --shared-index-path --show-object-format=? --show-ref-format --disambiguate= --path-format= --not`,
  "git describe":
    "--tags --all --long --abbrev=? --always --dirty=? --broken=? --exact-match --candidates= --match= --exclude= --first-parent --contains --debug",
  "git ls-files": `-c -d -m -o -i -s -u -k -z -t -v -f -x= -X=< --cached --deleted --modified --others --ignored --stage --unmerged --killed
    --directory --no-empty-directory --eol --exclude= --exclude-from=< --exclude-per-directory= --exclude-standard --error-unmatch
    --with-tree= --full-name --recurse-submodules --abbrev=? --debug --deduplicate --format= --sparse --resolve-undo`,
  "git ls-tree": "-d -r -t -l -z --long --name-only --name-status --object-only --full-name --full-tree --abbrev=? --format=",
  "git cat-file":
    "-t -s -e -p -Z -z --batch=? --batch-check=? --batch-command=? --batch-all-objects --buffer --follow-symlinks --unordered --allow-unknown-type --use-mailmap --no-use-mailmap",
  "git shortlog": `${LOG} -s -e -c -w=? --numbered --summary --email --committer --group= --format=`,
  "git grep": GREP,
  "git count-objects": "-v -H --verbose --human-readable",
  "git fsck":
    "--unreachable --dangling --no-dangling --root --tags --cache --no-reflogs --full --no-full --connectivity-only --strict --verbose --lost-found --name-objects --progress --no-progress",
  "git name-rev": "--tags --refs= --exclude= --all --annotate-stdin --name-only --no-undefined --always",
  "git merge-base": "-a --all --octopus --independent --is-ancestor --fork-point",
  "git cherry": "-v --abbrev=?",
  "git for-each-ref":
    "--count= --sort= --format= --color=? --shell -s --perl -p --python --tcl --points-at= --merged=? --no-merged=? --contains=? --no-contains=? --ignore-case --omit-empty --exclude= --stdin --include-root-refs",
  "git show-ref":
    "--head --dereference -d -s --hash=? --abbrev=? --verify --tags --heads --branches --exists -q --quiet --exclude-existing=?",
  "git show-branch":
    "-a -r -g --all --remotes --topo-order --date-order --current --sparse --more= --list --merge-base --independent --no-name --sha1-name --topics --reflog=? --color=? --no-color",
  "git var": "-l",
  "git help": "-a -g -i -m --all --guides --info --man --config --verbose --no-external-commands --no-aliases",
  "git version": "--build-options",
  "git check-ignore": "-q -v -n -z --stdin --no-index --quiet --verbose --non-matching",
  "git check-attr": "-a --all --cached --stdin -z --source=",
  "git verify-commit|git verify-tag": "-v --raw --verbose --format=",
  "git clean": "-n -d -x -X -q -e= -f --dry-run --quiet --exclude= --force",
  "git branch": `-a -r -l -v -q -d -D -m -M -c -C -f -u= -t=? --all --remotes --list --verbose --quiet --delete --move --copy --force
    --set-upstream-to= --unset-upstream --track=? --no-track --show-current --contains=? --no-contains=? --merged=? --no-merged=?
    --points-at= --sort= --format= --color=? --no-color --column=? --no-column --abbrev=? --no-abbrev --ignore-case --omit-empty
    --recurse-submodules --create-reflog`,
  "git tag": `-l -n=? -a -s -u= -m= -F=< -d -v -f --list --sort= --contains=? --no-contains=? --merged=? --no-merged=? --points-at=
    --format= --color=? --column=? --no-column --ignore-case --annotate --sign --no-sign --local-user= --message= --file=< --delete
    --verify --force --cleanup= --create-reflog --omit-empty --trailer=`,
  "git stash": `${LOG} -k -a -q -m= -S --keep-index --no-keep-index --include-untracked --only-untracked --quiet --message= --staged --index --pathspec-from-file=< --pathspec-file-nul`,
  "git worktree":
    "--porcelain -v --verbose -z --expire= -f --force -b= -B= --detach --checkout --no-checkout --lock --reason= -q --quiet --track --no-track --guess-remote --no-guess-remote --orphan -n --dry-run",
  "git submodule":
    "--recursive --init --remote --quiet -q --cached --force -f --depth= --reference= --jobs= -j= --checkout --rebase --merge --name= -b= --branch= --no-fetch --all --files --summary-limit= -n --no-recommend-shallow --recommend-shallow --single-branch",
  "git notes":
    "--ref= -m= -F=< -C= -c= -f --force --allow-empty --no-stripspace --stripspace --ignore-missing --stdin -n --dry-run -v --verbose -q --quiet",
  "git bisect": `${LOG} --no-checkout --first-parent --term-old= --term-new= --term-good= --term-bad=`,
  "git config": `--global --system --local --worktree --file=> -f=> --blob= --get --get-all --get-regexp --get-urlmatch --list -l --show-origin
    --show-scope --name-only --null -z --type= --bool --int --bool-or-int --path --expiry-date --default= --add --unset --unset-all
    --replace-all --rename-section --remove-section --includes --no-includes --fixed-value --comment= --value= --all --regexp --url=`,
  "git remote": "-v --verbose -f -t= -m= --tags --no-tags --mirror=? --push --add --delete --all -n --dry-run --no-query",
  "git ls-remote": "-h -t -q --heads --tags --branches --refs --quiet --exit-code --get-url --symref --sort= -o= --server-option=",
  "git add": `-A -u -p -n -v -f -N --all --update --patch --dry-run --verbose --force --intent-to-add --ignore-errors --ignore-missing
    --ignore-removal --no-ignore-removal --no-all --renormalize --chmod= --sparse --refresh --pathspec-from-file=< --pathspec-file-nul`,
  "git commit": `-a -m= -F=< -C= -c= -s -S=? -n -v -q -o -i -p -u=? -z --all --message= --file=< --amend --no-edit --allow-empty
    --allow-empty-message --author= --date= --signoff --no-signoff --gpg-sign=? --no-gpg-sign --no-verify --verify --fixup= --squash=
    --reuse-message= --reedit-message= --reset-author --only --include --patch --dry-run --short --porcelain --long --branch
    --untracked-files=? --cleanup= --trailer= --status --no-status --quiet --verbose --pathspec-from-file=< --pathspec-file-nul --null`,
  "git checkout": `-b= -B= -t -f -m -q -p -l --track=? --no-track --detach --orphan= --force --merge --quiet --patch --ours --theirs
    --conflict= --ignore-skip-worktree-bits --recurse-submodules --no-recurse-submodules --progress --no-progress --guess --no-guess
    --overwrite-ignore --no-overwrite-ignore --ignore-other-worktrees --pathspec-from-file=< --pathspec-file-nul`,
  "git switch": `-c= -C= -d -t -f -m -q --create= --force-create= --detach --track=? --no-track --guess --no-guess --force
    --discard-changes --merge --conflict= --quiet --progress --no-progress --orphan= --ignore-other-worktrees --recurse-submodules`,
  "git restore": `-s= -p -W -S -q -m --source= --patch --worktree --staged --quiet --progress --no-progress --ours --theirs --merge
    --conflict= --ignore-unmerged --ignore-skip-worktree-bits --recurse-submodules --overlay --no-overlay --pathspec-from-file=<`,
  "git merge": MERGE,
  "git pull": `${FETCH} ${MERGE}`,
  "git fetch": FETCH,
  "git rebase": `--onto= --keep-base --continue --skip --abort --quit -m --merge -q -v --stat -n --no-stat --autostash --no-autostash
    --autosquash --no-autosquash -f --force-rebase --fork-point --no-fork-point --root --committer-date-is-author-date
    --reset-author-date --ignore-date --signoff --update-refs --no-update-refs --empty= --keep-empty --rebase-merges=? --no-rebase-merges
    --no-verify --verify -S=? --gpg-sign=? --no-gpg-sign -C= --whitespace= --apply --strategy= -s= -X= --strategy-option= --quiet
    --verbose --no-ff --ignore-whitespace --reschedule-failed-exec --no-reschedule-failed-exec`,
  "git cherry-pick|git revert": PICK,
  "git init": "-q --bare --quiet --separate-git-dir=> -b= --initial-branch= --shared=? --object-format= --ref-format=",
  "git mv": "-f -k -n -v --force --dry-run --verbose --sparse",
  "git rm": "-f -r -n -q --cached --force --dry-run --quiet --ignore-unmatch --sparse --pathspec-from-file=< --pathspec-file-nul",
  "git am": `-3 -s -k -q -u -n -C= -p= --signoff --keep --keep-cr --no-keep-cr --scissors --no-scissors --quiet --utf8 --no-utf8 --3way
    --no-3way --ignore-space-change --ignore-whitespace --whitespace= --directory= --exclude= --include= --reject --patch-format=
    --continue --skip --abort --quit --show-current-patch=? --resolvemsg= --committer-date-is-author-date --ignore-date --empty= --no-verify`,
  "git apply": `--stat --numstat --summary --check --index --cached --intent-to-add -3 --3way -R --reverse --reject -z -p= -C= --unidiff-zero
    --apply --no-add --exclude= --include= --ignore-space-change --ignore-whitespace --whitespace= --inaccurate-eof -v --verbose -q
    --quiet --recount --directory= --allow-empty --allow-binary-replacement --binary`,
  "git gc": "--aggressive --auto --quiet --prune=? --no-prune --force --keep-largest-pack --cruft --no-cruft --detach --no-detach",
  "git maintenance": "@sub",
  "git maintenance run": "--task= --auto --schedule= --quiet --no-quiet",
  "git sparse-checkout": "--cone --no-cone --sparse-index --no-sparse-index --stdin --skip-checks --end-of-options",
  "git lfs": "@sub",
  "git lfs ls-files|git lfs status|git lfs env|git lfs version|git lfs fetch|git lfs pull|git lfs track|git lfs untrack|git lfs checkout|git lfs fsck|git lfs prune|git lfs locks|git lfs logs|git lfs pointer":
    "-l -s -n -a -d -I= -X= --long --size --name-only --all --deleted --include= --exclude= --recent --porcelain --json --verbose --dry-run --lockable --not-lockable --to= --file=< --stdin",
  "git archive":
    "--format= -l --list -v --verbose --prefix= -o=> --output=> --add-file=< --add-virtual-file= --worktree-attributes --mtime= --remote= #",
  "git reset":
    "--soft --mixed --hard --merge --keep -q --quiet -N --intent-to-add -p --patch --pathspec-from-file=< --pathspec-file-nul --recurse-submodules --no-recurse-submodules --no-refresh --refresh",
  "git commit-tree": "-p= -m= -F=< -S=? --gpg-sign=? --no-gpg-sign",
  "git mergetool": "-t= --tool= --tool-help -y --no-prompt --prompt -O=< -g --gui --no-gui",
  "git update-index": `--add --remove --force-remove --refresh --really-refresh -q --ignore-submodules --unmerged --ignore-missing --cacheinfo=
    --chmod= --assume-unchanged --no-assume-unchanged --skip-worktree --no-skip-worktree --info-only --index-info -z --stdin --verbose
    --again --unresolve --split-index --no-split-index --index-version= --show-index-version`,
  "git clone": `--depth= --branch= -b= --single-branch --no-single-branch --recurse-submodules=? --shallow-submodules --no-shallow-submodules
    --bare --mirror -o= --origin= -q --quiet -v --verbose --progress --no-progress -n --no-checkout --filter= --sparse --no-tags
    --reference= --dissociate --shared -s -l --local --no-hardlinks --jobs= -j= --separate-git-dir=> --no-remote-submodules
    --remote-submodules --also-filter-submodules --ref-format= --revision= --shallow-since= --shallow-exclude=`,
  "git difftool": `${DIFF} -y --no-prompt --prompt -d --dir-diff -t= --tool= --tool-help --symlinks --no-symlinks -g --gui --no-gui --trust-exit-code`,
  "git-grep": GREP,
  gh: "@sub",
  "gh api": "-H= -i -q= -t= -p= --jq= --template= --include --paginate --slurp --silent --verbose --cache= --preview= --header=",
  "gh pr|gh issue|gh repo|gh run|gh workflow|gh release|gh auth|gh label": "@sub",
  "gh pr list|gh pr view|gh pr status|gh pr diff|gh pr checks|gh issue list|gh issue view|gh issue status|gh repo view|gh run list|gh run view|gh run watch|gh workflow list|gh workflow view|gh release list|gh release view|gh auth status|gh label list|gh status":
    GH_READ,
  "gh search": "@sub",
  "gh search repos|gh search issues|gh search prs|gh search code|gh search commits": GH_READ,
  "gh browse": "-n --no-browser -R= --repo= -b= --branch= -c --commit=? -p --projects -s --settings -w --wiki -r --releases",
  "gh pr checkout": "-b= --branch= --detach -f --force --recurse-submodules -R= --repo=",
  "gh repo clone": "-u= --upstream-remote-name=",
};

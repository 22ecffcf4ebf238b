// Option tables (spec.ts notation) for infrastructure tools and a few
// system maintenance programs. Left out on purpose: terraform output
// -json/-raw (print sensitive outputs), pulumi --show-secrets and
// --policy-pack (policy packs are code), packer -evaluate-datasources,
// swapon -a (activates every swap area), lerna --npm-client (names the
// program to run), fail2ban-client -c/-s/-p/-d.
const TF_GLOBAL = "-chdir= -help -version";
const ANSIBLE =
  "-i= --inventory= -l= --limit= -e=< --extra-vars=< -v -vv -vvv -vvvv --vault-id= --vault-password-file=< --ask-vault-pass --playbook-dir=";

export const INFRA: Record<string, string> = {
  "terraform|tofu": `@sub ${TF_GLOBAL}`,
  ...Object.fromEntries(
    ["terraform", "tofu"].flatMap((t) => [
      [`${t} validate`, "-json -no-color -no-tests -test-directory="],
      [`${t} version`, "-json"],
      [`${t} show`, "-json -no-color"],
      [`${t} output`, "-no-color -state=<"],
      [`${t} state`, "@sub"],
      [`${t} state list|${t} state show`, "-state=< -id="],
      [`${t} providers`, "@sub"],
      [`${t} providers schema`, "-json"],
      [`${t} graph`, "-type= -plan=< -draw-cycles -module-depth="],
      [`${t} workspace`, "@sub"],
      [`${t} workspace list|${t} workspace show`, ""],
      [`${t} fmt`, "-list= -write= -diff -check -recursive -no-color"],
      [`${t} console`, "-state=< -var= -var-file=< -plan"],
      [
        `${t} init|${t} plan|${t} get|${t} refresh`,
        "-input= -lock= -lock-timeout= -no-color -var= -var-file=< -out=> -target= -refresh= -upgrade -backend= -backend-config=< -reconfigure -migrate-state -detailed-exitcode -compact-warnings -parallelism= -json -destroy -refresh-only",
      ],
    ]),
  ),
  pulumi: "@sub --cwd= -C= --non-interactive --color= --logtostderr -v= --emoji",
  "pulumi stack": "@sub @also=pulumi",
  "pulumi stack ls|pulumi stack output": "--json -j --all -a --organization= --project= --tag= -s= --stack= --shell @also=pulumi",
  "pulumi whoami": "-v --verbose --json -j @also=pulumi",
  "pulumi version": "",
  "pulumi preview":
    "--diff -d --json -j --refresh -r --show-replacement-steps --show-sames --stack= -s= --target= -t= --expect-no-changes --suppress-outputs --parallel= -p= --config= -c= --message= -m= --save-plan=> @also=pulumi",
  "ansible-inventory": `${ANSIBLE} --list --host= --graph --vars --yaml -y --toml --output=> --export`,
  "ansible-doc": "-l --list -F --list_files -t= --type= -s --snippet -j --json -M= --module-path= --playbook-dir= -e --entry-point= -v",
  "ansible-lint":
    "-p --parseable -q -v --offline --profile= -x= --skip-list= -w= --warn-list= --fix=? -c=< --config-file=< --format= -f= --nocolor --force-color --exclude= --strict --project-dir= --sarif-file=> --list-rules -L --list-tags -T",
  "ansible-playbook": `${ANSIBLE} --syntax-check --list-hosts --list-tasks --list-tags -t= --tags= --skip-tags= --check -C --diff -D -u= --user= --forks= -f= --timeout= -T= --start-at-task=`,
  packer: "@sub",
  "packer validate|packer fmt|packer inspect|packer version|packer init|packer build":
    "-syntax-only -var= -var-file=< -except= -only= -machine-readable -check -diff -write= -recursive -no-color -upgrade -force -on-error= -parallel-builds= -timestamp-ui -color=",
  certbot: "@sub",
  "certbot certificates": "-q --quiet -v -vv -vvv --verbose --cert-name= -d= --config-dir=< --work-dir= --logs-dir=",
  "fail2ban-client": "@sub -v -vv -q",
  "fail2ban-client status|fail2ban-client get|fail2ban-client ping|fail2ban-client version|fail2ban-client banned": "",
  logrotate: "-d --debug -v --verbose -s=> --state=> -l=> --log=> -f --force",
  swapon: "--show=? -s --summary --noheadings --raw --bytes",
  mount: "-l -t= --types=",
  lsar: "-l -L -j -t -long -json -test -nr -ns -e= -encoding= -p= -password=",
  "systemd-run": "",
};

// Option tables (spec.ts notation) for database clients, whose SQL the
// analyzers judge (analyzers.ts). Left out on purpose: options that run or
// load something besides the SQL judged (mysql --init-command/--pager/
// --plugin-dir/--default-auth/--defaults-file/--tee, psql's start-up file is
// switched off with -X but never switched to another, sqlite3 -init/-A,
// redis-cli --eval/--pipe/--rdb), and dc's -e/-f (its `!` runs commands:
// analyzers.ts judges the code).
// aws: an operation's parameters are `--name VALUE`; a value `file://F`
// sends the file, so every value is judged as a file read.
const AWS_SERVICES = `ec2 s3 s3api iam lambda logs sts ecs ecr eks rds dynamodb cloudformation cloudwatch route53 sns sqs elbv2 elb acm
  cloudfront apigateway apigatewayv2 stepfunctions cloudtrail guardduty kms ssm secretsmanager organizations autoscaling efs elasticache
  kinesis firehose events sesv2 ses codebuild codepipeline batch glue athena redshift opensearch es backup configservice wafv2 pricing
  budgets ce support sso sso-admin resourcegroupstaggingapi service-quotas`.replace(/\s+/g, " ");
const AWS_PARAMS = `--instance-ids=< --filters=< --bucket=< --key=< --prefix=< --name=< --names=< --function-name=< --log-group-name=<
  --log-stream-name=< --log-group-name-prefix=< --start-time=< --end-time=< --filter-pattern=< --limit=< --stack-name=< --cluster=<
  --clusters=< --services=< --service=< --tasks=< --task-definition=< --repository-name=< --repository-names=< --image-ids=< --table-name=<
  --db-instance-identifier=< --db-cluster-identifier=< --role-name=< --user-name=< --group-name=< --policy-arn=< --arn=< --resource-arn=<
  --owners=< --vpc-ids=< --subnet-ids=< --group-ids=< --hosted-zone-id=< --id=< --recursive --human-readable --summarize --include=<
  --exclude=< --topic-arn=< --queue-url=< --attribute-names=< --load-balancer-arns=< --target-group-arn=< --certificate-arn=< --domain-name=<
  --distribution-id=< --api-id=< --rest-api-id=< --state-machine-arn=< --execution-arn=< --trail-name=< --detector-id=< --key-id=<
  --alias-name=< --path=< --status=< --state=< --max-results=< --next-token=< --scope=< --log-stream-names=< --order-by=< --descending
  --start-from-head --interleaved --version-id=< --policy-name=< --instance-id=< --image-id=< --snapshot-ids=< --volume-ids=< --dry-run`;

export const DATA: Record<string, string> = {
  psql: `-c= -d= -h= -p= -U= -w -W -f=< -v= -X -q -A -t -x -a -e -E -n -s -S -L=> -o=> -P= -F= -R= -T= -z -0 -1 -b -l -V -H
    --command= --dbname= --host= --port= --username= --no-password --password --file=< --set= --variable= --no-psqlrc --quiet --no-align
    --tuples-only --expanded --echo-all --echo-queries --echo-hidden --single-line --single-step --log-file=> --output=> --pset=
    --field-separator= --record-separator= --table-attr= --csv --html --list --single-transaction --echo-errors --no-readline`,
  "mysql|mariadb": `-e= -u= -h= -P= -S= -D= -p=? -B -N -s -t -v -E -H -X -r --execute= --user= --host= --port= --socket= --database=
    --password=? --batch --skip-column-names --silent --table --verbose --vertical --html --xml --raw --no-defaults --ssl-mode= --protocol=`,
  sqlite3:
    "-cmd= -csv -json -line -list -column -html -markdown -table -box -header -noheader -readonly -bail -batch -echo -separator= -newline= -nullvalue= -safe -nofollow -ascii -tabs -quote -version -stats",
  "redis-cli|valkey-cli":
    "-h= -p= -a= -n= -u= -s= --user= --pass= --raw --no-raw --csv --json --quoted-json -c -e -r= -i= --tls --cacert=< --scan --pattern= --bigkeys --memkeys --hotkeys --stat --latency --intrinsic-latency= --no-auth-warning -x -3 -2 --version -v",
  "mysqladmin|mysqlshow":
    "-u= -h= -P= -S= -p=? --user= --host= --port= --socket= --password=? -s --silent -v --verbose -c= --count= -i= --sleep= -r --relative -k --keys -t --status",
  pg_lsclusters: "-h -j -s --no-header --json --start-conf",
  pg_isready: "-d= -h= -p= -q -t= -U= --dbname= --host= --port= --quiet --timeout= --username=",
  pg_config: "@data",
  pg_controldata: "-D=< --pgdata=<",
  pg_ctl: "@sub -D=< -s --silent --pgdata=<",
  "pg_ctl status": "@also=pg_ctl",
  pg_ctlcluster: "",
  etcdctl:
    "@sub --endpoints= --cacert=< --cert= --key= --user= --password= -w= --write-out= --command-timeout= --dial-timeout= --insecure-skip-tls-verify",
  "etcdctl get|etcdctl member|etcdctl endpoint":
    "@also=etcdctl --prefix --keys-only --limit= --print-value-only --rev= --from-key --sort-by= --order= --consistency= --cluster",
  "etcdctl member list|etcdctl endpoint status|etcdctl endpoint health": "@also=etcdctl --cluster --hex",
  influx: "@sub",
  "influx ping|influx version": "--host= --http-debug --skip-verify",
  dc: "-e= --expression= -f=< --file=<",
  vault: "@sub",
  // Not -address: vault sends its token with every request, to that address too (round 22).
  "vault status|vault version": "-format= -tls-skip-verify -ca-cert=< -namespace=",
  "vault token": "@sub",
  "vault token lookup": "-format= -field= -namespace=",
  bw: "@sub",
  "bw status": "--session= --raw --pretty --nointeraction --response",
  gpg: "--list-keys -k --list-secret-keys -K --fingerprint --version --verify --with-colons --keyid-format= --with-fingerprint --with-subkey-fingerprint --with-keygrip --fixed-list-mode --list-sigs --check-sigs --batch --no-tty --quiet -q --verbose -v",
  pass: "@sub",
  "pass ls|pass find": "",
  op: "@sub",
  "op whoami": "--account= --format=",
  aws: "@sub --region= --profile= --output= --query= --no-cli-pager --debug --no-verify-ssl --no-paginate --color= --cli-read-timeout= --cli-connect-timeout= --no-sign-request --page-size= --max-items= --starting-token=",
  ...Object.fromEntries(AWS_SERVICES.split(" ").map((svc) => [`aws ${svc}`, `${AWS_PARAMS} @also=aws`])),
  gcloud: "@sub --format= --filter= --project= --account= --verbosity= --quiet --all --limit= --sort-by= --flatten= --uri",
  "gcloud auth|gcloud config": "@sub @also=gcloud",
  "gcloud auth list|gcloud config list": "@also=gcloud",
  az: "@sub --output= -o= --query= --subscription= --only-show-errors --verbose --debug",
  "az account": "@sub @also=az",
  "az account show": "--name= -n= @also=az",
};

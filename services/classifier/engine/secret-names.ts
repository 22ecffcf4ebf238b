// Variable names that say they hold a secret (GH_TOKEN, AWS_SECRET_ACCESS_KEY,
// DB_PASS, api_key …), as read-env-secret and shell-print-secret have them for
// `printenv NAME` / `echo $NAME`, and the places a command's text expands
// one: a here-string or here-document fed to a command's input, a URL a
// client requests. One list for the classifier (awk's ENVIRON, jq's env, the
// input and URL checks), a little wider than the policy's patterns: an
// expansion judged here is never judged more leniently than `echo $NAME`.

/**
 * A name that says it holds a secret (matched anywhere in the name, any case;
 * PASS, PAT (a personal access token: GH_PAT, PAT_TOKEN) and DSN as a whole
 * part; PWD as a last part after another, MYSQL_PWD, DB_PWD, never the shell's
 * PWD or OLDPWD; DATABASE_URL and *_DATABASE_URL, which carry a password).
 * Review 31: JWT (CI_JOB_JWT), WEBHOOK (SLACK_WEBHOOK_URL: the URL is the credential), CREDS, SK as a whole
 * part (STRIPE_SK), connection strings and the database and broker URLs that carry a password (MONGODB_URI,
 * REDIS_URL) were tier 0 in `echo $NAME`.
 * Round 20: passphrases (BORG_PASSPHRASE, GPG_PASSPHRASE), sshpass's SSHPASS, a `_PW` suffix (LDAP_BIND_PW),
 * one-time-password seeds (TOTP_SEED), SONAR_LOGIN (SonarQube's token), broker and search URLs (CELERY_BROKER_URL,
 * ELASTICSEARCH_URL).
 */
export const SECRET_NAME =
  /SECRET|TOKEN|PASSW|PASSPHRASE|SSHPASS|SONAR_LOGIN|KEY|CREDENTIAL|AUTH|COOKIE|SESSION|PRIVATE|JWT|WEBHOOK|CREDS|CONNECTION_?STRING|(?:^|_)(?:PASS|PAT|DSN|SK|CONN_STR)(?:$|_)|(?:^|_)(?:PW|T?OTP(?:_SEED)?)$|._PWD$|(?:^|_)(?:DATABASE|DB|MONGO(?:DB)?|REDIS|AMQP|RABBITMQ|POSTGRES(?:QL)?|PG|MYSQL|BROKER|ELASTIC(?:SEARCH)?|OPENSEARCH)_UR[LI]$/i;

/**
 * The first secret-named variable `text` expands (`$TOKEN`, `${GH_TOKEN}`,
 * `${API_KEY:-x}`, `${TOKEN@Q}`, `${!TOKEN}` …), or null. `${#NAME}` (its
 * length) reveals nothing, nor does `\$NAME` in a
 * here-document. Text without a `$` costs one search.
 */
export function secretExpansion(text: string, except?: RegExp): string | null {
  if (!text.includes("$")) return null;
  for (const m of text.matchAll(/(\\?)\$(\{[#!]?)?([A-Za-z_][A-Za-z0-9_]*)/g)) {
    // `\$TOKEN` in a here-document's body is the text `$TOKEN`.
    if (m[1] === "\\" || m[2] === "{#") continue;
    const name = m[3] as string;
    if (SECRET_NAME.test(name) && !except?.test(name)) return name;
  }
  return null;
}

import { describe, expect, it } from "vitest";
import { findCredentials, redactCredentials, redactDeep } from "./credentials.js";

const GH = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8";
const AWS = "AKIA" + "IOSFODNN7EXAMPLE";
const SK = "sk-" + "proj-AbCdEfGhIjKlMnOpQrStUvWx";

describe("credential literals", () => {
  it.each([
    [`curl -H "Authorization: token ${GH}" https://api.github.com`, "github-token"],
    [`git clone https://x:${GH}@github.com/o/r`, "github-token"],
    [`glab auth login --token glpat-abcdefghij0123456789`, "gitlab-token"],
    [`curl -d token=xoxb-1234567890-abcdefghij https://slack.com/api/x`, "slack-token"],
    [`AWS_ACCESS_KEY_ID=${AWS} aws s3 ls`, "aws-access-key"],
    [`stripe charges list --api-key sk_live_abcdefghijklmnop1234`, "stripe-key"],
    [`OPENAI_API_KEY=${SK} python3 x.py`, "api-key"],
    [`curl -H 'Authorization: Bearer abc.def.ghi-jkl' https://x`, "bearer"],
    [`curl -H "authorization: basic dXNlcjpwYXNzd29yZA==" https://x`, "basic-auth"],
    [`psql postgres://app:s3cretPass@db:5432/app`, "url-password"],
    [`mysql --password=hunter22 -e 'select 1'`, "password-option"],
    [`PGPASSWORD=hunter22 psql -h db`, "secret-variable"],
    [`export DB_PASSWORD='correct horse battery'`, "secret-variable"],
    [`export GH_TOKEN=abcdef123456`, "secret-variable"],
    ["printf '%s' '-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk\n-----END OPENSSH PRIVATE KEY-----' > k", "private-key"],
    // Tokens by their documented prefixes.
    ["npm config set //registry.npmjs.org/:_authToken npm_abcdefghijklmnopqrstuvwxyz0123456789", "service-token"],
    ["twine upload -u __token__ -p pypi-AgEIcHlwaS5vcmcCJGFiY2RlZmdoaWprbG1ub3BxcnN0dXZ3eHl6MDEy dist/*", "service-token"],
    ["docker login -u me -p dckr_pat_abcdefghijklmnopqrstuvwxyz0 registry.example.com", "service-token"],
    ["huggingface-cli login --token hf_abcdefghijklmnopqrstuvwxyzABCDEF", "service-token"],
    ["vault login hvs.CAESIabcdefghijklmnopqrstuvwxyz0123456789", "service-token"],
    ["vault login s.Q8Hk2mZ7xW4nR1tY6uP3aB9c", "service-token"],
    ["vault token lookup -accessor=false s.Q8Hk2mZ7xW4nR1tY6uP3aB9c", "service-token"],
    ["VAULT_TOKEN=s.Q8Hk2mZ7xW4nR1tY6uP3aB9c vault kv get secret/app", "service-token"],
    ["vault token revoke b.AAAAAQJ8Hk2mZ7xW4nR1tY6u", "service-token"],
    ["echo eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U", "jwt"],
    // Headers and arguments that carry a secret whatever its shape.
    ["curl -H 'X-API-Key: 3f2a9c8e7d6b5a4f3e2d1c0b9a8f7e6d' https://api.example.com", "api-key-header"],
    ["curl -H 'X-Vault-Token: 0123456789abcdef' http://127.0.0.1:8200/v1/x", "api-key-header"],
    ["curl -H 'Authorization: Token 0123456789abcdef0123456789abcdef' https://x", "authorization"],
    ["curl -u admin:S3cr3tPass! https://example.com", "password-argument"],
    ["curl -s --user 'ci:hunter2hunter2' https://example.com", "password-argument"],
    ["mysql -uroot -pS3cr3tPass mydb", "password-argument"],
    ["mysqldump -u root -p'S3cr3t Pass' db > d.sql", "password-argument"],
    ["sshpass -p 'hunter22' ssh root@example.com", "password-argument"],
    ["redis-cli -h cache -a S3cretRedisPass ping", "password-argument"],
    ["docker login -u me -p hunter2hunter2 registry.example.com", "password-argument"],
    ["aws configure set aws_secret_access_key wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "password-argument"],
    ["aws configure set default.aws_session_token FwoGZXIvYXdzEBYaDexample", "password-argument"],
    ["echo '//npm.example.com/:_authToken=abcdef0123456789' >> .npmrc", "npm-auth"],
    ["curl --oauth2-bearer abcdef0123456789abcdef https://example.com", "password-option"],
    ["gcloud auth activate-service-account --client-secret=abcdef0123456789", "password-option"],
  ])("%s → %s, and the redacted text holds no part of it", (text, kind) => {
    const hits = findCredentials(text);
    expect(hits.map((h) => h.kind)).toContain(kind);
    const red = redactCredentials(text);
    expect(red).toContain(`[redacted:`);
    for (const h of hits) expect(red).not.toContain(text.slice(h.start, h.end));
  });

  it.each([
    "echo hello",
    "export GH_TOKEN=$(cat ~/.config/gh/token)",
    'curl -H "Authorization: Bearer $TOKEN" https://x',
    "git clone https://github.com/o/r",
    "psql postgres://app@db/app",
    "BYPASS=1 make",
    "grep -rn API_TOKEN docs/",
    "ls --password-file=x",
    "echo skinny-jeans",
    // Look-alikes: a prompt for the password, a port, a uid:gid, a variable, a reference.
    "mysql -u root -p mydb",
    "mysql -h db -P3306 -u app -p",
    'mysql -u app -p"$DB_PASS" app',
    "docker run -u 1000:1000 -p 8080:80 nginx",
    "docker login -u me --password-stdin registry.example.com",
    'curl -u "$USER:$PASS" https://example.com',
    "curl -u admin: https://example.com",
    "sort -u names.txt",
    'curl -H "X-API-Key: $API_KEY" https://api.example.com',
    "echo '//npm.example.com/:_authToken=${NPM_TOKEN}' >> .npmrc",
    // Vault without a literal token, and a 24-character word that is not after vault.
    "vault login -method=userpass username=me",
    'VAULT_TOKEN="$(cat ~/.vault-token)" vault status',
    "git checkout s.Q8Hk2mZ7xW4nR1tY6uP3aB9c",
    "redis-cli -a $REDIS_PASSWORD ping",
    "cat shelf_abcdefghijklmnopqrstuvwxyz0123456789.txt",
    "aws configure set region eu-west-1",
    "git log --format=%H -n 1",
  ])("%s carries none", (text) => {
    expect(findCredentials(text)).toEqual([]);
    expect(redactCredentials(text)).toBe(text);
  });

  it.each([
    [`bash -c 'curl -s --user '\\''ci:hunter2hunter2'\\'' https://x'`, "hunter2hunter2"],
    [`echo "ghp_""${GH.slice(4)}"`, GH.slice(4)],
    [`x=1; echo gh'p_'${GH.slice(4, 20)}"${GH.slice(20)}"`, GH.slice(4, 20)],
    [`mysql -uroot -p\\S3cr3tPass app`, "S3cr3tPass"],
  ])("%s: a literal split by quotes or backslashes is found and redacted", (text, part) => {
    expect(findCredentials(text).length).toBeGreaterThan(0);
    expect(redactCredentials(text)).not.toContain(part);
  });

  it("redacts every string of a nested value, leaving the shape", () => {
    expect(redactDeep({ a: [`x ${GH}`], b: { c: 1, d: `PGPASSWORD=hunter22 psql` } })).toEqual({
      a: ["x [redacted:github-token]"],
      b: { c: 1, d: "PGPASSWORD=[redacted:secret-variable] psql" },
    });
  });

  it("never passes on unredacted what lies past its depth limit", () => {
    let deep: unknown = { token: `x ${GH}`, list: [GH] };
    for (let i = 0; i < 12; i++) deep = { next: deep };
    const out = JSON.stringify(redactDeep(deep));
    expect(out).not.toContain(GH);
    expect(out).toContain("[redacted:too-deep]");
  });
});

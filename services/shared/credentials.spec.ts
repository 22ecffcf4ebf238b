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
  ])("%s carries none", (text) => {
    expect(findCredentials(text)).toEqual([]);
    expect(redactCredentials(text)).toBe(text);
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

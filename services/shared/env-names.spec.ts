import { describe, expect, it } from "vitest";
import { commandDigest } from "./attestation.js";
import { envNameProblem, envNamesProblem, MAX_ENV_SECRETS } from "./env-names.js";

describe("secret variable names", () => {
  it.each([
    "DB_PASSWORD",
    "GITHUB_TOKEN",
    "GH_TOKEN",
    "APP_SECRET",
    "STRIPE_API_KEY",
    "SENTRY_DSN",
    "PGPASSWORD",
    "MYSQL_PWD",
    "AWS_SECRET_ACCESS_KEY",
  ])("accepts %s", (name) => {
    expect(envNameProblem(name)).toBeUndefined();
  });

  it.each([
    ["LD_PRELOAD", /steers/],
    ["LD_LIBRARY_PATH", /steers/],
    ["BASH_ENV", /steers/],
    ["PATH", /steers/],
    ["GIT_SSH_COMMAND", /steers/],
    ["GIT_CONFIG_GLOBAL", /steers/],
    ["NODE_OPTIONS", /steers/],
    ["PYTHONSTARTUP", /steers/],
    ["EDITOR", /not named like a credential/],
    ["GOOGLE_APPLICATION_CREDENTIALS", /not named like a credential/],
    ["GIT_SSL_KEY", /steers/],
    ["SSL_CERT_KEY", /steers/],
    ["PAGER", /not named like a credential/],
    ["db_password", /not a variable name/],
    ["A-B_TOKEN", /not a variable name/],
    ["", /not a variable name/],
  ])("refuses %s", (name, why) => {
    expect(envNameProblem(name)).toMatch(why);
  });

  it("refuses duplicates and too many names", () => {
    expect(envNamesProblem(["A_TOKEN", "A_TOKEN"])).toMatch(/twice/);
    expect(envNamesProblem(Array.from({ length: MAX_ENV_SECRETS + 1 }, (_, i) => `K${i}_TOKEN`))).toMatch(/at most/);
    expect(envNamesProblem([])).toBeUndefined();
  });
});

describe("commandDigest binds the secret variables' names", () => {
  const base = { command: "psql -c 'select 1'", cwd: "/", host: "primary", runAs: "", source: "sudo" as const };
  it("differs with names, whatever their order, and equals the bare digest without them", () => {
    const bare = commandDigest(base);
    expect(commandDigest({ ...base, envNames: [] })).toEqual(bare);
    const one = commandDigest({ ...base, envNames: ["PGPASSWORD"] });
    expect(one).not.toEqual(bare);
    expect(commandDigest({ ...base, envNames: ["A_TOKEN", "PGPASSWORD"] })).toEqual(
      commandDigest({ ...base, envNames: ["PGPASSWORD", "A_TOKEN"] }),
    );
    expect(commandDigest({ ...base, envNames: ["A_TOKEN", "PGPASSWORD"] })).not.toEqual(one);
  });

  it("cannot be confused with a longer run-as or command (length-prefixed, own tag)", () => {
    const withName = commandDigest({ ...base, envNames: ["X_TOKEN"] });
    expect(commandDigest({ ...base, runAs: "X_TOKEN" })).not.toEqual(withName);
    expect(commandDigest({ ...base, command: `${base.command}\nX_TOKEN` })).not.toEqual(withName);
  });
});

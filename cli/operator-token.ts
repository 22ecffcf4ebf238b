// `agent-sudo console-token NAME` and `agent-sudo metrics-token NAME`: make
// (or replace) a person's operator-console admin token, or a scraper's
// /metrics token. The token is printed once; its sha256 goes into
// console-tokens.json / metrics-tokens.json (0600) in the state dir. The
// gateway reads them at start (restart it to apply) and refuses to start
// when one equals an /exec caller's token.
// Exit codes: 0 ok, 1 failure, 2 usage.
import { chmodSync, writeFileSync } from "node:fs";
import { loadConfig } from "../services/shared/config.js";
import { hashToken, newToken, parseTokensFile } from "../services/gateway/tokens.js";

export async function operatorTokenCommand(kind: "console" | "metrics", argv: string[]): Promise<number> {
  const [name, ...extra] = argv;
  if (!name || extra.length > 0 || !/^[A-Za-z0-9_.-]{1,64}$/.test(name)) {
    process.stderr.write(
      `usage: agent-sudo ${kind}-token NAME   (NAME: letters, digits, . _ -; ${kind === "console" ? "the person labels are recorded as" : "the scraper"})\n`,
    );
    return 2;
  }
  const config = loadConfig();
  const file = kind === "console" ? config.consoleTokensFile : config.metricsTokensFile;
  const current = parseTokensFile(file);
  const token = newToken();
  const callers = [...current.callers.filter((c) => c.name !== name), { name, token_sha256: hashToken(token) }];
  writeFileSync(file, `${JSON.stringify({ callers }, null, 2)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  process.stderr.write(`${kind} token for ${name} written to ${file} (restart the gateway to apply); it is shown once:\n`);
  process.stdout.write(`${token}\n`);
  return 0;
}

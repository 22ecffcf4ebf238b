// The operator's tokens, apart from the callers': metrics-tokens.json (who
// may scrape GET /metrics) and console-tokens.json (who may log in to the
// console; the name is who a label is recorded as). Same shape as
// tokens.json (sha256 hashes only), read before the privilege drop. A token
// that is also an /exec caller's is refused at start: an agent holding an
// /exec token must never label its own commands or read the console.
import type { Config } from "../shared/config.js";
import { parseTokensFile, TokenVerifier, type TokensFileShape } from "./tokens.js";

export class OperatorTokenError extends Error {}

export interface OperatorTokens {
  metrics: TokenVerifier;
  console: TokenVerifier;
}

function overlap(a: TokensFileShape, b: TokensFileShape): string[] {
  const hashes = new Set(a.callers.map((c) => c.token_sha256));
  return b.callers.filter((c) => hashes.has(c.token_sha256)).map((c) => c.name);
}

export function loadOperatorTokens(config: Config, exec: TokensFileShape = parseTokensFile(config.tokensFile)): OperatorTokens {
  const metrics = parseTokensFile(config.metricsTokensFile);
  const console = parseTokensFile(config.consoleTokensFile);
  for (const [file, shape] of [
    [config.metricsTokensFile, metrics],
    [config.consoleTokensFile, console],
  ] as const) {
    const shared = overlap(exec, shape);
    if (shared.length > 0)
      throw new OperatorTokenError(
        `${file}: ${shared.join(", ")} use a token that is also an /exec caller's token (tokens.json); give them their own`,
      );
  }
  const both = overlap(metrics, console);
  if (both.length > 0)
    throw new OperatorTokenError(`${config.consoleTokensFile}: ${both.join(", ")} use a metrics token; a console token must be its own`);
  return { metrics: new TokenVerifier(metrics), console: new TokenVerifier(console) };
}

// GET /metrics on the gateway's TCP port: the Prometheus text format, for a
// scraper holding a metrics token (metrics-tokens.json: hashed, compared in
// constant time, never an /exec token — the two files are checked apart at
// start). No metrics token configured: /metrics does not exist (404).
// Failures count against the source address like /exec's (429 after ten).
import type { IncomingMessage } from "node:http";
import type { AuthLimiter } from "../auth-limit.js";
import type { HttpAnswer } from "../refusal.js";
import type { TokenVerifier } from "../tokens.js";
import type { GatewayMetrics } from "./gateway-metrics.js";
import { answer } from "../answers.js";

export class MetricsEndpoint {
  constructor(
    private readonly metrics: GatewayMetrics,
    private readonly tokens: TokenVerifier,
    private readonly authLimit: AuthLimiter,
  ) {}

  /** Whether /metrics is served at all (a metrics token is configured). */
  get enabled(): boolean {
    return this.tokens.size > 0;
  }

  async answer(req: IncomingMessage): Promise<HttpAnswer> {
    req.resume();
    const source = req.socket.remoteAddress ?? "unknown";
    if (this.tokens.verify(req.headers.authorization)) {
      return {
        status: 200,
        body: {},
        text: await this.metrics.scrape(),
        headers: { "content-type": this.metrics.registry.contentType },
      };
    }
    const wait = this.authLimit.blockedFor(source);
    if (wait > 0) return answer("rate_limited", {}, { "retry-after": String(wait) });
    this.authLimit.fail(source);
    return answer("unauthorized", {}, { "www-authenticate": 'Bearer realm="metrics"' });
  }

  /** Every answer either listener gives, by route, status and the tier it names. */
  observe(path: string, answer: HttpAnswer): void {
    this.metrics.observeAnswer(path, answer.status, answer.body.tier);
  }
}

// The ntfy notifier: POSTs a message to a topic URL with Title, Priority
// (1–5) and Tags headers and an optional Bearer token. `notify` only queues
// and returns at once: a notifier that is down never blocks or fails the
// caller. Delivery is retried with backoff; what is still queued when the
// process dies is lost (the queue lives in memory only — callers that must
// not lose a message, like the breaker's trip, re-send it on start until
// they have seen `onDelivered`).
import { consoleLink } from "./console-url.js";
import { redactCredentials } from "./credentials.js";
import type { Logger } from "./log.js";

export type NtfyPriority = 1 | 2 | 3 | 4 | 5;

/** The priorities the project uses, by event (issue 8). */
export const PRIORITY = { min: 1, low: 2, default: 3, high: 4, urgent: 5 } as const satisfies Record<string, NtfyPriority>;

export interface NtfyMessage {
  title: string;
  body: string;
  priority: NtfyPriority;
  tags?: string[];
  /**
   * The matching operator-console page (a path such as /breaker): sent as
   * ntfy's Click header and as the body's last line when the console is on
   * (settings.consoleUrl), left out when it is off.
   */
  link?: string;
  /** Called once the server accepted the message (2xx). */
  onDelivered?: () => void;
}

export interface NtfySettings {
  /** Topic URL, e.g. https://ntfy.example/agent-sudo. Unset: notifications are logged only. */
  url?: string;
  token?: string;
  /** Attempts per message, the first included. */
  attempts: number;
  /** Delay before the n-th retry: backoffMs * 2^(n-1), capped at maxBackoffMs. */
  backoffMs: number;
  maxBackoffMs: number;
  timeoutMs: number;
  /** Queue bound: beyond it the oldest message is dropped (and logged). */
  maxQueue: number;
  /** The operator console's base URL when it is on (services/shared/console-url.ts). */
  consoleUrl?: string;
}

export const NTFY_DEFAULTS: Omit<NtfySettings, "url" | "token"> = {
  attempts: 6,
  backoffMs: 1000,
  maxBackoffMs: 60_000,
  timeoutMs: 5000,
  maxQueue: 100,
};

/**
 * Settings from the environment until config.ts carries an `ntfy` block:
 * AGENT_SUDO_NTFY_URL, AGENT_SUDO_NTFY_TOKEN, AGENT_SUDO_NTFY_ATTEMPTS,
 * AGENT_SUDO_NTFY_BACKOFF_MS, AGENT_SUDO_NTFY_TIMEOUT_MS.
 */
export function ntfySettingsFromEnv(env: NodeJS.ProcessEnv = process.env): NtfySettings {
  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === "") return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${name} must be an integer in ${min}..${max}: ${raw}`);
    return n;
  };
  const url = env.AGENT_SUDO_NTFY_URL || undefined;
  if (url !== undefined) {
    const parsed = new URL(url);
    if (parsed.protocol !== "https:" && parsed.protocol !== "http:") throw new Error(`AGENT_SUDO_NTFY_URL must be http(s): ${url}`);
  }
  return {
    url,
    token: env.AGENT_SUDO_NTFY_TOKEN || undefined,
    attempts: int("AGENT_SUDO_NTFY_ATTEMPTS", NTFY_DEFAULTS.attempts, 1, 100),
    backoffMs: int("AGENT_SUDO_NTFY_BACKOFF_MS", NTFY_DEFAULTS.backoffMs, 1, 3_600_000),
    maxBackoffMs: NTFY_DEFAULTS.maxBackoffMs,
    timeoutMs: int("AGENT_SUDO_NTFY_TIMEOUT_MS", NTFY_DEFAULTS.timeoutMs, 100, 120_000),
    maxQueue: NTFY_DEFAULTS.maxQueue,
  };
}

/**
 * HTTP header values are Latin-1 without control characters; ntfy decodes
 * RFC 2047 encoded words, so anything else travels as =?UTF-8?B?…?=.
 */
export function headerValue(text: string): string {
  const flat = text.replace(/[\r\n\t]+/g, " ").trim();
  // eslint-disable-next-line no-control-regex
  if (/^[\x20-\x7e]*$/.test(flat)) return flat;
  return `=?UTF-8?B?${Buffer.from(flat, "utf8").toString("base64")}?=`;
}

interface Queued {
  msg: NtfyMessage;
  attempt: number;
}

/** Whether a failed attempt is worth repeating: network errors, 408, 429, 5xx. */
function retryable(status: number | undefined): boolean {
  return status === undefined || status === 408 || status === 429 || status >= 500;
}

export class Notifier {
  private readonly queue: Queued[] = [];
  private running = false;
  private idleWaiters: Array<() => void> = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly settings: NtfySettings,
    private readonly log: Logger,
  ) {}

  /**
   * Queues a message and returns at once; never throws. Title and body are
   * redacted of credential literals first: a message leaves the host (often
   * for a public ntfy server) and may quote a refused command.
   */
  notify(msg: NtfyMessage): void {
    const priority = Math.min(5, Math.max(1, Math.round(msg.priority))) as NtfyPriority;
    const entry = { msg: { ...msg, title: redactCredentials(msg.title), body: redactCredentials(msg.body), priority }, attempt: 0 };
    if (!this.settings.url) {
      this.log.warn({ ntfy: "not configured", title: msg.title, priority }, "notification not sent (no ntfy url)");
      return;
    }
    if (this.queue.length >= this.settings.maxQueue) {
      const dropped = this.queue.shift();
      this.log.error({ title: dropped?.msg.title }, "ntfy queue full: oldest notification dropped");
    }
    this.queue.push(entry);
    this.pump();
  }

  /** Messages waiting or in flight. */
  get pending(): number {
    return this.queue.length;
  }

  /** Resolves when the queue is empty (every message delivered or given up). */
  idle(): Promise<void> {
    if (this.queue.length === 0 && !this.running) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Stops retrying; what is queued is dropped (and logged). */
  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    for (const q of this.queue.splice(0)) this.log.warn({ title: q.msg.title }, "ntfy notification dropped at close");
    this.settle();
  }

  private settle(): void {
    if (this.queue.length > 0 || this.running) return;
    for (const w of this.idleWaiters.splice(0)) w();
  }

  private pump(): void {
    if (this.running || this.timer || this.queue.length === 0) return;
    this.running = true;
    void this.sendHead().finally(() => {
      this.running = false;
      this.settle();
    });
  }

  private async sendHead(): Promise<void> {
    const head = this.queue[0];
    if (!head) return;
    head.attempt++;
    const status = await this.post(head.msg);
    if (status !== undefined && status >= 200 && status < 300) {
      this.queue.shift();
      this.log.info({ title: head.msg.title, priority: head.msg.priority, attempt: head.attempt }, "ntfy notification delivered");
      try {
        head.msg.onDelivered?.();
      } catch (err) {
        this.log.error({ err }, "ntfy onDelivered callback failed");
      }
      setImmediate(() => this.pump());
      return;
    }
    if (!retryable(status) || head.attempt >= this.settings.attempts) {
      this.queue.shift();
      this.log.error({ title: head.msg.title, status, attempts: head.attempt }, "ntfy notification given up");
      setImmediate(() => this.pump());
      return;
    }
    const delay = Math.min(this.settings.maxBackoffMs, this.settings.backoffMs * 2 ** (head.attempt - 1));
    this.log.warn({ title: head.msg.title, status, attempt: head.attempt, retry_in_ms: delay }, "ntfy delivery failed; will retry");
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.pump();
    }, delay);
    this.timer.unref();
  }

  /** One POST; the HTTP status, or undefined when no answer came. */
  private async post(msg: NtfyMessage): Promise<number | undefined> {
    const url = this.settings.url;
    if (!url) return undefined;
    const headers: Record<string, string> = {
      Title: headerValue(msg.title),
      Priority: String(msg.priority),
      "Content-Type": "text/plain; charset=utf-8",
    };
    if (msg.tags && msg.tags.length > 0) headers.Tags = headerValue(msg.tags.join(","));
    if (this.settings.token) headers.Authorization = `Bearer ${this.settings.token}`;
    const link = msg.link && this.settings.consoleUrl ? consoleLink(this.settings.consoleUrl, msg.link) : undefined;
    if (link) headers.Click = link;
    try {
      const res = await fetch(url, {
        method: "POST",
        headers,
        body: link ? `${msg.body}\n${link}` : msg.body,
        signal: AbortSignal.timeout(this.settings.timeoutMs),
        redirect: "error",
      });
      await res.arrayBuffer().catch(() => undefined);
      return res.status;
    } catch (err) {
      this.log.warn({ err: (err as Error).message }, "ntfy POST failed");
      return undefined;
    }
  }
}

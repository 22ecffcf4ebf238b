// Container recovery: when a tier-3 command fails to verify and the rules
// that decided it name a `redeploy` webhook (e.g. a CI job that redeploys
// the last good release), the gateway POSTs to it — the undo for container
// operations, where the scoped file undo restores nothing that matters.
// The URL comes from the signed policy, never from the caller. The body says
// which request failed and why; a Bearer token is sent when
// AGENT_SUDO_REDEPLOY_TOKEN is set. Each webhook gets a few attempts with a
// timeout; the result is reported, never thrown.

export interface RedeployResult {
  url: string;
  ok: boolean;
  /** HTTP status of the last attempt, 0 when it never answered. */
  status: number;
  attempts: number;
  error?: string;
}

export interface RedeploySettings {
  token?: string;
  attempts: number;
  timeoutMs: number;
  backoffMs: number;
}

export function redeploySettingsFromEnv(env: NodeJS.ProcessEnv = process.env): RedeploySettings {
  return {
    ...(env.AGENT_SUDO_REDEPLOY_TOKEN ? { token: env.AGENT_SUDO_REDEPLOY_TOKEN } : {}),
    attempts: 3,
    timeoutMs: 10_000,
    backoffMs: 1000,
  };
}

export interface RedeployEvent {
  request_id: string;
  host: string;
  rule: string;
  command: string;
  detail: string;
}

async function postOnce(url: string, body: string, s: RedeploySettings): Promise<{ status: number; error?: string }> {
  try {
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", ...(s.token ? { authorization: `Bearer ${s.token}` } : {}) },
      body,
      redirect: "error",
      signal: AbortSignal.timeout(s.timeoutMs),
    });
    await res.arrayBuffer().catch(() => undefined);
    return { status: res.status };
  } catch (err) {
    return { status: 0, error: (err as Error).message };
  }
}

/** POSTs `event` to every webhook, each until it answers 2xx or its attempts run out. */
export async function triggerRedeploy(urls: readonly string[], event: RedeployEvent, s: RedeploySettings): Promise<RedeployResult[]> {
  const body = JSON.stringify({ event: "agent-sudo.verify_failed", ...event, command: event.command.slice(0, 1000) });
  return Promise.all(
    urls.map(async (url) => {
      let last: { status: number; error?: string } = { status: 0 };
      for (let attempt = 1; attempt <= s.attempts; attempt++) {
        last = await postOnce(url, body, s);
        if (last.status >= 200 && last.status < 300) return { url, ok: true, status: last.status, attempts: attempt };
        if (attempt < s.attempts) await new Promise((r) => setTimeout(r, s.backoffMs * attempt));
      }
      return { url, ok: false, status: last.status, attempts: s.attempts, ...(last.error ? { error: last.error } : {}) };
    }),
  );
}

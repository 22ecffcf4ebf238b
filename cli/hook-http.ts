// The `http` type of Claude Code hook for PreToolUse (`agent-sudo hook
// install --type http`): the client POSTs the event to the gateway's TCP
// port itself, so no process is spawned per Bash call.
//
// How it fails: closed, but only through the entry's `onFailure: "block"`
// (Claude Code ≥ 2.1.x): gateway down, slower than `timeout`, any non-2xx
// (401 without the token, 5xx), a body that is not JSON or not a valid hook
// answer → the call is blocked (checked against the real client in
// test/client/). Without that field the client's default is "continue": the
// command would run. A 2xx with an empty body is "no opinion" to the client,
// as our 204 is. There is no escape hatch: nothing runs on the client's side
// that could read AGENT_SUDO_HOOK_ESCAPE.
import { loadConfig } from "../services/shared/config.js";
import type { HookEntry } from "./hook.js";

export const TOKEN_VARIABLE = "AGENT_SUDO_HOOK_TOKEN";
const PATHS = ["/v1/hook", "/v1/hook/post-tool-use", "/v1/hook/session-start"];

/** The PreToolUse entry: 1 s like the sh hook's limit, blocking on any failure, the caller token from the client's environment. */
export function httpPreToolUse(url: string): Record<string, unknown> {
  return {
    type: "http",
    url,
    timeout: 1,
    onFailure: "block",
    headers: { Authorization: `Bearer $${TOKEN_VARIABLE}` },
    allowedEnvVars: [TOKEN_VARIABLE],
  };
}

/** Ours: an http hook to one of the gateway's hook paths that sends our token variable. */
export function isOurHttp(hook: HookEntry): boolean {
  if (hook.type !== "http" || typeof hook.url !== "string") return false;
  let path: string;
  try {
    path = new URL(hook.url).pathname;
  } catch {
    return false;
  }
  return PATHS.includes(path) && Array.isArray(hook.allowedEnvVars) && hook.allowedEnvVars.includes(TOKEN_VARIABLE);
}

/** The gateway's base URL as its config.json says (its bind address, loopback for a wildcard; its port; https with TLS), or why not. */
export function gatewayHookUrl(home: string): string | { error: string } {
  try {
    const config = loadConfig(home);
    const tls = config.http.tls_cert !== undefined;
    const bind = config.http.bind;
    const host = bind === "0.0.0.0" || bind === "::" ? "127.0.0.1" : bind.includes(":") ? `[${bind}]` : bind;
    return `${tls ? "https" : "http"}://${host}:${config.http.port}`;
  } catch (err) {
    return { error: `cannot read the gateway's config in ${home} (${(err as Error).message}); give --url` };
  }
}

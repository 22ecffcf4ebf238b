// A server the hook would start listening beyond this host: a dev server
// bound to every interface (`vite --host`, `next dev -H 0.0.0.0`, `mkdocs
// serve -a 0.0.0.0:8000`, `manage.py runserver 0.0.0.0:8000`, `HOST=0.0.0.0
// npm start`) serves the workspace — its source, and often files beside it —
// to the network, and a debugger bound so (`node --inspect=0.0.0.0`) runs
// anyone's code. Serving the workspace to others is exfiltration: never
// tier 0–1 (review 34; `python3 -m http.server` and `php -S` were already 2).
import type { SimpleCommand, Word } from "./types.js";

/** Long options that name the address a server binds (value glued with `=` or the next word). */
const LONG =
  /^--(host|hostname|bind|listen|ip|addr|address|dev-addr|inspect|inspect-brk|inspect-wait|inspect-port|debug-port|inspect-publish-uid)$/;
/** Short options of dev servers that take the address (`next -H`, `rails s -b`, `gunicorn -b`, `mkdocs -a`); judged only at tier 1. */
const SHORT = /^-(H|b|a)$/;
/** Variables servers read their bind address from (Create React App, Nuxt/Nitro, Next's standalone server, Astro). */
const HOST_VARIABLE = /^(HOST|HOSTNAME|NUXT_HOST|NITRO_HOST|BIND|BIND_ADDRESS|LISTEN_ADDR|SERVER_HOST)$/;
/** Flags that, bare, mean "every interface" (vite, astro, nuxi, svelte-kit: `--host` with no value). */
const BARE = /^--host$/;

/** Whether an address (optionally with a port) is reachable beyond this host: any interface or a non-loopback IP literal. */
function exposed(value: string): boolean {
  const v = value.trim().toLowerCase();
  const host = /^\[([^\]]*)\](?::\d+)?$/.exec(v)?.[1] ?? v.replace(/^(\d+\.\d+\.\d+\.\d+|[^:]*):\d+$/, "$1");
  if (host === "" || host === "*" || host === "true" || host === "all") return true;
  if (/^(localhost|127(\.\d+){3}|::1|0*:0*:0*:0*:0*:0*:0*:0*1|\d+)$/.test(host)) return false;
  return /^\d+(\.\d+){3}$/.test(host) || /^[0-9a-f]*:[0-9a-f:]+$/.test(host);
}

/** Why `cmd` (judged tier 0–1 otherwise) starts a server reachable beyond this host, or null. */
export function exposedServer(cmd: SimpleCommand, tier: number): string | null {
  for (const a of cmd.assigns)
    if (HOST_VARIABLE.test(a.name) && !a.value.dynamic && exposed(a.value.text))
      return `${a.name}=${a.value.text} binds a server to the network`;
  const words = cmd.words.slice(1);
  for (let i = 0; i < words.length; i++) {
    const w = words[i] as Word;
    if (w.dynamic) continue;
    const eq = w.text.indexOf("=");
    const opt = eq > 0 && w.text.startsWith("--") ? w.text.slice(0, eq) : w.text;
    const long = LONG.test(opt);
    if (!long && !(tier === 1 && SHORT.test(opt))) {
      // `runserver 0.0.0.0:8000`: an address with a port as an operand.
      if (tier === 1 && /^(\d+\.\d+\.\d+\.\d+|\[[0-9a-f:]*\]):\d+$/i.test(w.text) && exposed(w.text)) return `listens on ${w.text}`;
      continue;
    }
    const next = words[i + 1];
    if (opt !== w.text) {
      if (exposed(w.text.slice(eq + 1))) return `${w.text}: listens beyond this host`;
    } else if (next === undefined || next.text.startsWith("-")) {
      if (BARE.test(opt) && tier === 1) return `${opt} with no address listens on every interface`;
    } else if ((next.dynamic && tier === 1) || (!next.dynamic && exposed(next.text)))
      return `${opt} ${next.text}: listens beyond this host`;
  }
  return null;
}

// A server the hook would start listening beyond this host: a dev server
// bound to every interface (`vite --host`, `next dev -H 0.0.0.0`, `mkdocs
// serve -a 0.0.0.0:8000`, `manage.py runserver 0.0.0.0:8000`, `HOST=0.0.0.0
// npm start`) serves the workspace — its source, and often files beside it —
// to the network, and a debugger bound so (`node --inspect=0.0.0.0`, a JVM's
// JDWP agent on `*:5005`) runs anyone's code. Serving the workspace to others
// is exfiltration: never tier 0–1 (review 34; `python3 -m http.server` and
// `php -S` were already 2). Addresses are read as the resolver reads them:
// `0`, `0.0` and `0x0` are 0.0.0.0 (inet_aton), `0177.0.0.1` is loopback.
import { posix } from "node:path";
import type { SimpleCommand, Word } from "./types.js";

/** Long options whose value is an address (a bare number too: `--host 0` is 0.0.0.0). Go's flags take one dash. */
const HOST_OPTION = /^--?(host|hostname|bind|binding|ip|server\.address)$/;
/** Long options whose value is an address with a port, or a port alone (`--inspect=9229` stays on loopback). */
const LISTEN_OPTION =
  /^--?(listen|addr|address|http|dev-addr|urls|inspect|inspect-brk|inspect-wait|inspect-port|debug-port|inspect-publish-uid)$/;
/** Short options of dev servers that take the address (`next -H`, `rails s -b`, `gunicorn -b`, `mkdocs -a`); judged only at tier 1. */
const SHORT = /^-(H|b|a)/;
/** Variables servers read their bind address (or URLs) from. */
const HOST_VARIABLE =
  /^(HOST|HOSTNAME|NUXT_HOST|NITRO_HOST|BIND|BINDING|BIND_ADDRESS|LISTEN_ADDR|SERVER_HOST|FLASK_RUN_HOST|UVICORN_HOST|GRADIO_SERVER_NAME|STREAMLIT_SERVER_ADDRESS|ASPNETCORE_URLS|DOTNET_URLS)$/;
/** Flags that, bare, mean "every interface" (vite, astro, nuxi, svelte-kit: `--host` with no value). */
const BARE = /^--host$/;
/** Programs that start a distributed Erlang node with these options: epmd and the node listen on every interface. */
const ERLANG = new Set(["elixir", "iex", "erl", "elixirc"]);
const ERLANG_NAME = /^--?s?name$/;

/** An IPv4 literal as inet_aton reads it (1–4 parts, decimal, octal or hex), or null. */
function ipv4(text: string): number | null {
  const parts = text.split(".");
  if (parts.length > 4 || parts.some((p) => !/^(0x[0-9a-f]*|0[0-7]*|[1-9]\d*)$/.test(p))) return null;
  const nums = parts.map((p) =>
    p.startsWith("0x") ? Number.parseInt(p.slice(2) || "0", 16) : p.startsWith("0") ? Number.parseInt(p, 8) : Number(p),
  );
  let value = 0;
  for (const [i, n] of nums.entries()) {
    const last = i === nums.length - 1;
    const room = last ? 2 ** (8 * (4 - i)) : 256;
    if (!(n < room)) return null;
    value = last ? value * room + n : value * 256 + n;
  }
  return value;
}

/** Whether a host (no port) is reachable beyond this host: any interface, a non-loopback literal. Names count as local. */
function exposedHost(raw: string, digitsArePort: boolean): boolean {
  const host = raw
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, "$1");
  if (host === "" || host === "*" || host === "+" || host === "true" || host === "all" || host === "any") return true;
  if (/^\d+$/.test(host) && digitsArePort) return host === "0";
  const v4 = ipv4(host);
  if (v4 !== null) return Math.floor(v4 / 2 ** 24) !== 127;
  if (!/^[0-9a-f:.]*:[0-9a-f:.]*$/.test(host)) return false;
  // IPv6: loopback (::1, written in full or not), a v4-mapped address judged as that address; anything else is exposed.
  const mapped = /^(?:0*:)*:?ffff:(\d[\d.]*)$/.exec(host);
  if (mapped) return exposedHost(mapped[1] as string, false);
  return !/^(0*:)*:?0*1$/.test(host) || host === "0:0:0:0:0:0:0:0";
}

/**
 * Whether an address value (host, host:port, [v6]:port, :port, a URL, a
 * `;`-separated list of URLs) binds beyond this host. `digitsArePort`: a
 * bare number is a port on the default (loopback) address, except `0`.
 */
function exposed(value: string, digitsArePort: boolean): boolean {
  return value.split(/[;,]/).some((item) => {
    let v = item.trim().toLowerCase();
    v = v.replace(/^[a-z][a-z0-9+.-]*:\/\//, "").replace(/\/.*$/, "");
    if (v === "") return false;
    const bracketed = /^(\[[^\]]*\])(?::\d*)?$/.exec(v);
    if (bracketed) return exposedHost(bracketed[1] as string, false);
    // One colon: host:port (`0:9229`, `:8080`, `*:5000`); more: an IPv6 literal without brackets.
    const colon = v.indexOf(":");
    if (colon >= 0 && colon === v.lastIndexOf(":")) return /^\d*$/.test(v.slice(colon + 1)) && exposedHost(v.slice(0, colon), false);
    return exposedHost(v, digitsArePort);
  });
}

/** A JVM option that starts a debugger or management agent reachable beyond this host (JDWP on `*:5005`, JMX without a password). */
function jvmAgent(words: readonly Word[]): string | null {
  for (const w of words) {
    const jdwp = /^-(?:agentlib:jdwp=|Xrunjdwp:)(.*)$/.exec(w.text);
    const address = jdwp ? /(?:^|,)address=([^,]*)/.exec(jdwp[1] as string)?.[1] : undefined;
    // A port alone is loopback since JDK 9; a host part (`*`, 0.0.0.0, an interface) is not.
    if (address !== undefined && address.includes(":") && exposed(address, true))
      return `${w.text}: a debugger any host that reaches it can drive`;
  }
  const texts = words.map((w) => w.text);
  if (
    texts.some((t) => /^-Dcom\.sun\.management\.jmxremote\.port=/.test(t)) &&
    texts.includes("-Dcom.sun.management.jmxremote.authenticate=false")
  )
    return "JMX without authentication listens on every interface";
  return null;
}

/** Why `cmd` (judged tier 0–1 otherwise) starts a server reachable beyond this host, or null. */
export function exposedServer(cmd: SimpleCommand, tier: number): string | null {
  for (const a of cmd.assigns)
    if (HOST_VARIABLE.test(a.name) && !a.value.dynamic && exposed(a.value.text, !/URLS$/.test(a.name)))
      return `${a.name}=${a.value.text} binds a server to the network`;
  // The program may sit behind a wrapper (`timeout 5 mdbook …`, `env X=1 elixir …`): any word naming it counts.
  const names = new Set(cmd.words.filter((w) => !w.dynamic && !w.text.startsWith("-")).map((w) => posix.basename(w.text)));
  const words = cmd.words.slice(1);
  const agent = jvmAgent(words);
  if (agent !== null) return agent;
  const short = names.has("mdbook") ? /^-(H|b|a|n)/ : SHORT;
  const erlang = [...ERLANG].some((n) => names.has(n));
  for (let i = 0; i < words.length; i++) {
    const w = words[i] as Word;
    if (w.dynamic) continue;
    if (erlang && ERLANG_NAME.test(w.text))
      return `${w.text} starts a distributed Erlang node: epmd and the node listen on every interface`;
    const eq = w.text.indexOf("=");
    const opt = eq > 0 && w.text.startsWith("-") ? w.text.slice(0, eq) : w.text;
    const host = HOST_OPTION.test(opt);
    const long = host || LISTEN_OPTION.test(opt);
    // A short option with its value glued (`-a0.0.0.0:8000`, `-H0`): the rest of the word.
    const glued = !long && tier === 1 && short.test(w.text) && w.text.length > 2 && !w.text.startsWith("--") ? w.text.slice(2) : null;
    if (glued !== null) {
      if (exposed(glued.replace(/^=/, ""), true)) return `${w.text}: listens beyond this host`;
      continue;
    }
    if (!long && !(tier === 1 && short.test(opt) && opt.length === 2)) {
      // `runserver 0.0.0.0:8000`, `runserver 0:8000`: an address with a port as an operand.
      if (tier === 1 && /^([0-9a-fx.]+|\[[0-9a-f:.]*\]):\d+$/i.test(w.text) && exposed(w.text, false)) return `listens on ${w.text}`;
      continue;
    }
    const digitsArePort = !host;
    const next = words[i + 1];
    if (opt !== w.text) {
      if (exposed(w.text.slice(eq + 1), digitsArePort)) return `${w.text}: listens beyond this host`;
    } else if (next === undefined || next.text.startsWith("-")) {
      if (BARE.test(opt) && tier === 1) return `${opt} with no address listens on every interface`;
    } else if ((next.dynamic && tier === 1) || (!next.dynamic && exposed(next.text, digitsArePort)))
      return `${opt} ${next.text}: listens beyond this host`;
  }
  return null;
}

// HTTP clients: curl's options (short clusters split), the files curl and
// wget write, and the local files curl and httpie/xh send to another system.
import type { Analysis } from "../analyzers.js";
import { splitArgs } from "../argv.js";
import { cwdWord } from "../targets.js";
import type { Spec, Target } from "../targets.js";
import type { Word } from "../types.js";

// curl's short options that take a value (`-fsSLo FILE` ends a cluster with one).
const CURL_SHORT_VALUES = "AbcCdDeEFHKmoPQrtTuUwxXyYz";
const CURL_LONG_VALUES = new Set([
  "--output",
  "--dump-header",
  "--cookie-jar",
  "--trace",
  "--trace-ascii",
  "--stderr",
  "--etag-save",
  "--output-dir",
  "--libcurl",
  "--hsts",
  "--alt-svc",
  "--data",
  "--data-binary",
  "--data-raw",
  "--data-ascii",
  "--data-urlencode",
  "--json",
  "--form",
  "--form-string",
  "--upload-file",
  "--header",
  "--request",
  "--user",
  "--user-agent",
  "--referer",
  "--cookie",
  "--config",
  "--max-time",
  "--connect-timeout",
  "--retry",
  "--proxy",
  "--write-out",
  "--range",
  "--cert",
  "--key",
  "--cacert",
  "--capath",
  "--resolve",
  "--connect-to",
  "--interface",
  "--netrc-file",
  "--oauth2-bearer",
  "--url",
  "--variable",
]);
// Options naming a file curl writes (headers, cookies, traces, caches).
const CURL_WRITES = new Set([
  "-o",
  "--output",
  "-D",
  "--dump-header",
  "-c",
  "--cookie-jar",
  "--trace",
  "--trace-ascii",
  "--stderr",
  "--etag-save",
  "--libcurl",
  "--hsts",
  "--alt-svc",
]);

/** curl's options and operands, short clusters split (`-fsSLo F` → -f -s -S -L -o F). */
export function curlOptions(args: readonly Word[]): { opts: [string, Word | null][]; operands: Word[] } {
  const opts: [string, Word | null][] = [];
  const operands: Word[] = [];
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as Word;
    const t = w.text;
    if (t === "--") {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (w.dynamic || !t.startsWith("-") || t === "-") {
      operands.push(w);
      continue;
    }
    if (t.startsWith("--")) {
      const eq = t.indexOf("=");
      if (eq > 0) opts.push([t.slice(0, eq), { ...w, text: t.slice(eq + 1) }]);
      else opts.push([t, CURL_LONG_VALUES.has(t) ? (args[++i] ?? null) : null]);
      continue;
    }
    for (let k = 1; k < t.length; k++) {
      const c = t[k] as string;
      if (!CURL_SHORT_VALUES.includes(c)) {
        opts.push([`-${c}`, null]);
        continue;
      }
      opts.push([`-${c}`, t.length > k + 1 ? { ...w, text: t.slice(k + 1) } : (args[++i] ?? null)]);
      break;
    }
  }
  return { opts, operands };
}

export function curlTargets(args: readonly Word[]): Target[] {
  const { opts, operands } = curlOptions(args);
  const out: Target[] = [];
  for (const [o, v] of opts) if (CURL_WRITES.has(o) && v && v.text !== "-" && v.text !== "%") out.push({ word: v, mode: "write" });
  // `-w '%output{FILE}…'` / `%output{>>FILE}` sends the rest of the write-out text to FILE.
  for (const [o, v] of opts) {
    if ((o !== "-w" && o !== "--write-out") || !v) continue;
    for (const m of v.text.matchAll(/%output\{(?:>>)?([^}]*)\}/g)) out.push({ word: { ...v, text: m[1] ?? "" }, mode: "write" });
  }
  if (opts.some(([o]) => o === "-O" || o === "--remote-name" || o === "--remote-name-all" || o === "-J")) {
    const dir = [...opts].reverse().find(([o]) => o === "--output-dir")?.[1] ?? cwdWord();
    out.push({ word: dir, mode: "write" });
    // -O names the file after the URL's last path segment, inside --output-dir.
    for (const u of operands) {
      const name =
        u.text
          .replace(/[?#].*$/, "")
          .replace(/^[a-z]+:\/\/[^/]*/i, "")
          .split("/")
          .pop() ?? "";
      if (name !== "")
        out.push({ word: { ...u, text: `${dir.text.replace(/\/+$/, "")}/${name}`, dynamic: u.dynamic || dir.dynamic }, mode: "write" });
    }
  }
  return out;
}

// curl options whose value names a local file to send: `-d @F`, `--data-binary @F`, `-F a=@F`, `-F a=<F`, `-T F`, `--json @F`.
const CURL_SENDS_FILE = (o: string, v: string): boolean =>
  (/^(-d|--data|--data-binary|--data-ascii|--json)$/.test(o) && v.startsWith("@")) ||
  (o === "--data-urlencode" && /^[^=]*@/.test(v)) ||
  (/^(-F|--form)$/.test(o) && /=[@<]/.test(v)) ||
  (/^(-T|--upload-file)$/.test(o) && v !== "") ||
  /^(-K|--config)$/.test(o);

// curl options that send a body or upload, in any spelling (`-d x`, `-sdx`, `-sLd x`, `--data=x`, `-sF a=b`, `-sT f`).
const CURL_BODY =
  /^(-d|--data|--data-binary|--data-raw|--data-ascii|--data-urlencode|--json|-F|--form|--form-string|-T|--upload-file|--mail-rcpt|--mail-from)$/;
// Schemes that fetch (read) a resource. Others (gopher, dict, telnet, ldap, smb, mqtt, rtsp, smtp, imap, pop3, tftp …)
// send the URL's bytes raw to a service: a redis `CONFIG SET`, a memcached `flush_all`.
const CURL_READ_SCHEMES = /^(https?|ftps?|wss?|file)$/i;
// Cloud instance metadata services (credentials of the machine's role): AWS/GCP/Azure/OpenStack link-local, ECS, Alibaba,
// AWS's IPv6 address, GCP's name; the decimal, hex and octal spellings of 169.254.169.254.
const METADATA =
  /(^|[^0-9])169\.254\.|metadata\.google\.internal|\bmetadata\.azure|fd00:ec2::254|100\.100\.100\.200|\b2852039166\b|0xa9fea9fe|0xa9\.0xfe|0251\.0376|a9fe:a9fe|\/\/metadata(\/|:|$)|computeMetadata/i;

/** The scheme a curl URL operand names ("http" when it has none). */
function urlScheme(url: string): string {
  return /^([a-z][a-z0-9+.-]*):\/\//i.exec(url)?.[1]?.toLowerCase() ?? "http";
}

export function curlAnalysis(args: readonly Word[]): Analysis | null {
  const { opts, operands } = curlOptions(args);
  const sent = opts.filter(([o, v]) => v !== null && CURL_SENDS_FILE(o, v.text));
  if (sent.length > 0)
    return {
      tier: 3,
      rule: "analysis:curl-upload",
      reason: `sends a local file to another system (${sent.map(([o, v]) => `${o} ${v?.text}`).join(", ")})`,
      kind: "floor",
    };
  const method = opts.find(
    ([o, v]) => (o === "-X" || o === "--request") && (v === null || v.dynamic || !/^(GET|HEAD|OPTIONS)$/i.test(v.text)),
  );
  const body = opts.find(([o]) => CURL_BODY.test(o));
  if (method || body) {
    const [o, v] = (method ?? body) as [string, Word | null];
    return { tier: 3, rule: "analysis:curl-send", reason: `sends data to another system (${o} ${v?.text ?? ""})`.trimEnd(), kind: "floor" };
  }
  const urls = [...operands, ...opts.filter(([o]) => o === "--url").map(([, v]) => v as Word | null)].filter((w): w is Word => w !== null);
  const raw = urls.find((u) => !u.dynamic && !CURL_READ_SCHEMES.test(urlScheme(u.text)));
  if (raw)
    return {
      tier: 3,
      rule: "analysis:curl-raw-scheme",
      reason: `${urlScheme(raw.text)}:// sends the URL's bytes to a service as a request`,
      kind: "floor",
    };
  const words = [...urls, ...opts.map(([, v]) => v).filter((w): w is Word => w !== null)];
  const meta = words.find((w) => METADATA.test(w.text));
  if (meta)
    return {
      tier: 2,
      rule: "analysis:curl-metadata",
      reason: `reads a cloud metadata service (instance credentials): ${meta.text}`,
      kind: "floor",
    };
  const sock = opts.find(([o]) => o === "--unix-socket" || o === "--abstract-unix-socket");
  if (sock)
    return {
      tier: 2,
      rule: "analysis:curl-unix-socket",
      reason: `talks to a local daemon's socket (docker's answers with container configs): ${sock[1]?.text ?? ""}`,
      kind: "floor",
    };
  const format = opts.find(([o, v]) => (o === "-w" || o === "--write-out") && v !== null && (v.dynamic || /^@(?!-$)/.test(v.text)));
  if (format)
    return {
      tier: 2,
      rule: "analysis:curl-write-out",
      reason: "a --write-out format from a file may write files (%output{})",
      kind: "floor",
    };
  return null;
}

// httpie/xh options that take a value as the next word (so it is not read as the URL or an item).
const HTTPIE_VALUES = new Set([
  "-a",
  "--auth",
  "-A",
  "--auth-type",
  "--session",
  "--session-read-only",
  "-o",
  "--output",
  "-p",
  "--print",
  "-P",
  "--history-print",
  "-s",
  "--style",
  "--pretty",
  "--verify",
  "--cert",
  "--cert-key",
  "--cert-key-pass",
  "--proxy",
  "--timeout",
  "--max-redirects",
  "--boundary",
  "--format-options",
  "--response-charset",
  "--response-mime",
  "--ssl",
  "--ciphers",
  "--default-scheme",
  "--raw",
  "--bearer",
  "--resolve",
  "--interface",
  "--unix-socket",
  "--chunked-size",
]);
// Item separators, longest first at a position: `name:=@file`, `name=@file`, `name:=json`, `name==query`, `name=data`,
// `Header:value`, `name@file`. Data items (a request body) are all but `==` and `:`.
const HTTPIE_SEPARATORS = [":=@", "=@", ":=", "==", "=", ":", "@"];

/** The separator an httpie request item uses (the earliest in the text), or null for none. */
function itemSeparator(item: string): string | null {
  for (let i = 0; i < item.length; i++) {
    if (item[i] === "\\") {
      i++;
      continue;
    }
    const sep = HTTPIE_SEPARATORS.find((s) => item.startsWith(s, i));
    if (sep) return sep;
  }
  return null;
}

/**
 * httpie/xh requests that send: a method other than GET/HEAD/OPTIONS, a data
 * item (`a=1`, `a:=1`, `a@file`), a raw body, form or multipart options; a
 * local file embedded or uploaded (`field@file`, `@file` bodies) is worse.
 */
export function httpieAnalysis(args: readonly Word[]): Analysis | null {
  const operands: Word[] = [];
  const options: Word[] = [];
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as Word;
    if (w.text === "--") {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (w.text.startsWith("-") && w.text.length > 1 && !w.dynamic) {
      options.push(w);
      if (HTTPIE_VALUES.has(w.text) && args[i + 1]) options.push(args[++i] as Word);
    } else operands.push(w);
  }
  const methodFirst = /^[A-Za-z]+$/.test(operands[0]?.text ?? "") && itemSeparator(operands[0]?.text ?? "") === null;
  const items = operands.slice(methodFirst ? 2 : 1);
  const files = items.filter((w) => /^(?:[^=:@\s]*(?:=|:=)?)@./.test(w.text) && !/^[a-z]+:\/\//i.test(w.text));
  const body = args.filter((w) => w.text.startsWith("@") || /^--raw=@/.test(w.text));
  if (files.length + body.length > 0)
    return {
      tier: 3,
      rule: "analysis:http-upload",
      reason: `sends a local file to another system (${[...files, ...body].map((w) => w.text).join(", ")})`,
      kind: "floor",
    };
  const method = operands
    .slice(0, 2)
    .find((w) => /^(POST|PUT|DELETE|PATCH|CONNECT|TRACE|PROPFIND|MKCOL|MOVE|COPY|LOCK|UNLOCK|PURGE)$/i.test(w.text));
  const data = items.find((w) => ["=", ":=", "=@", ":=@", "@"].includes(itemSeparator(w.text) ?? ""));
  const sendOpt = options.find((w) => /^(--raw|--form|-f|--multipart|--chunked|-x|--compress)(=|$)/.test(w.text));
  const why = method ?? data ?? sendOpt;
  if (why) return { tier: 3, rule: "analysis:http-send", reason: `sends data to another system (${why.text})`, kind: "floor" };
  return null;
}

export const wgetTargets: Spec = (a) => {
  const s = splitArgs(a, new Set(["-O", "--output-document", "-P", "--directory-prefix", "-o", "-a", "-U", "--header", "-t", "-T", "-e"]));
  const o = s.values.get("-O") ?? s.values.get("--output-document") ?? s.values.get("-P") ?? s.values.get("--directory-prefix");
  return [{ word: o ?? cwdWord(), mode: "write" }];
};

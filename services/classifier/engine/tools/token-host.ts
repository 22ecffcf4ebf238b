// A secret-named variable sent in a header or as credentials (`curl -H
// "Authorization: Bearer $TOKEN" URL`, `-u "me:$PASSWORD"`, httpie's
// `Authorization:"Bearer $API_KEY"`) goes to whoever the URL names. Sending
// $GITHUB_TOKEN to api.github.com is how it is meant to be used; sending it
// to any other host hands the token over (review 34: tier 0 before). A
// token whose name names its owner must go to that owner's registrable
// domain (GITHUB_ → github.com, OPENAI_ → openai.com) or to this host;
// otherwise: 2, as a secret in a URL is. A generic name ($TOKEN) is left.
import type { Analysis } from "../analyzers.js";
import { carried } from "../command-output.js";
import { secretExpansion } from "../secret-names.js";
import type { Word } from "../types.js";

/** Parts of a variable's name that say what it is, not whose it is. */
const GENERIC =
  /^(?:TOKENS?|KEYS?|APIKEY|API|SECRETS?|ACCESS|AUTH|PAT|PASSWORD|PASSWD|PASS|PW|PWD|BEARER|CLIENT|PRIVATE|PERSONAL|APP|ID|SK|PK|CREDENTIALS?|CREDS?|JWT|WEBHOOK|URL|URI|SESSION|REFRESH|USER|ADMIN|SERVICE|ACCOUNT|MY|DEV|PROD|STAGING|TEST|LIVE|READ|WRITE|CI|JOB|BOT|HOOK|SIGNING|MASTER|ROOT|DEFAULT|OAUTH2?|CONNECTION|STRING|CONN|STR|DB|DATABASE|REGISTRY|NODE|AUTHTOKEN|X)$/;
/** Short or product names of a vendor and the domain label it serves its API from. */
const ALIAS: Readonly<Record<string, string>> = {
  gh: "github",
  gl: "gitlab",
  hf: "huggingface",
  npm: "npmjs",
  google: "googleapis",
  gemini: "googleapis",
  gcp: "googleapis",
  claude: "anthropic",
  docker: "docker",
  dockerhub: "docker",
  cf: "cloudflare",
};

/** The label of a host's registrable domain (api.github.com → github), "" for this host, null when not known. */
function domainLabel(host: string): string | null {
  const h = host.toLowerCase().replace(/\.$/, "");
  // httpie's `:3000/x` is localhost.
  if (h === "" || /^(localhost|127(\.\d+){3}|\[::1\]|::1)$/.test(h) || h.endsWith(".localhost")) return "";
  const labels = h.split(".");
  if (labels.length < 2 || /^\d+$/.test(labels.at(-1) ?? "")) return null;
  return labels.at(-2) ?? null;
}

function authority(url: string): string | null {
  const a = /^(?:[a-z][a-z0-9+.-]*:\/\/)?([^/?#]*)/i.exec(url)?.[1] ?? "";
  if (a === "" || /[$`\\{]/.test(a)) return null;
  const hostPort = a.slice(a.lastIndexOf("@") + 1);
  return hostPort.startsWith("[") ? hostPort.slice(0, hostPort.indexOf("]") + 1) : hostPort.replace(/:\d*$/, "");
}

/** Why `values` (headers, credentials) send a secret-named variable to a host in `urls` its name does not name, or null. */
export function tokenElsewhere(values: readonly Word[], urls: readonly Word[], tool: string): Analysis | null {
  let name: string | null = null;
  for (const w of values) {
    for (const text of carried(w)) name ??= secretExpansion(text);
    if (name !== null) break;
  }
  if (name === null) return null;
  const owners = name
    .toUpperCase()
    .split(/_+/)
    .filter((p) => p !== "" && !GENERIC.test(p))
    .map((p) => ALIAS[p.toLowerCase()] ?? p.toLowerCase());
  // A generic name ($TOKEN, $API_KEY, $PASSWORD) says nothing of whose it is: the URL is taken as its owner (the
  // earlier rounds' allowed rows: redteam3 101, redteam6-hook 127, redteam7-hook 142–143, redteam8-exfil 75).
  if (owners.length === 0) return null;
  for (const u of urls) {
    const host = authority(u.text);
    const label = host === null ? null : domainLabel(host);
    if (label === "" || (label !== null && owners.includes(label))) continue;
    return {
      tier: 2,
      rule: "analysis:token-elsewhere",
      reason: `${tool} sends $${name}, a variable whose name says it holds a secret, to ${host ?? u.text}, a host its name does not name`,
      kind: "floor",
    };
  }
  return null;
}

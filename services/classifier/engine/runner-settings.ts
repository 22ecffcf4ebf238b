// Review 51: settings that name what a root runner starts, read by key (settings-files.ts calls this). cron-apt's
// action files are apt-get's arguments, run as root from cron: an option there is the same setting as in apt.conf
// (`-o DPkg::Pre-Invoke::=…` is a hook apt runs with /bin/sh, `-o Dir::Bin::dpkg=…` another dpkg, `-o
// APT::Get::AllowUnauthenticated=true` unsigned packages). Its sourced settings name the program it runs and where its
// actions are. The automounter's master map names maps; a program map (or an executable map file) is a program
// automount runs as root for every key looked up. Both were committed as "a system path" in both judges.
import { unpackaged } from "./packaged.js";
import { comment, lines, type Mark, mark, shellWords, unquote } from "./runs-later-content.js";

const CRON_APT_ACTION = /^\/etc\/cron-apt\/action\.d\/[^/]+$/;
const CRON_APT_SETTINGS = /^\/etc\/cron-apt\/(?:config|config\.d\/[^/]+|actionconf\.d\/[^/]+)$/;
const AUTO_MASTER = /^\/etc\/auto\.master(?:\.d\/[^/]+)?$/;

/** apt configuration keys that run a program, point apt at other programs or trees, or loosen its checks. */
const RISKY_APT_KEY =
  /invoke|install-pkgs|(?:^|::)dir(?:::|$)|::bin::|binary::|method|proxy-?auto-?detect|unauthenticated|insecure|allowweak|trusted|signed-by|check-valid|check-date|verify-peer|verify-host|gpgv|apt::key|solver|planner|sandbox::user|chroot|::tools::|::options$|::path$|#include|::hook/i;

export function runnerFile(path: string): boolean {
  return CRON_APT_ACTION.test(path) || CRON_APT_SETTINGS.test(path) || AUTO_MASTER.test(path);
}

/** apt-get's arguments (one cron-apt action line, or cron-apt's OPTIONS): why they hand root's apt a program or a package, or null. */
function aptArgumentsWhy(text: string): string | null {
  if (/[`$\\;|&<>]/.test(text)) return `${text.trim().slice(0, 60)}: shell syntax in apt's arguments`;
  const words = shellWords(text);
  for (let i = 0; i < words.length; i++) {
    const w = words[i] as string;
    if (/^(?:-c|--config-file)(?:=|$)|^-c./.test(w)) return `${w}: apt reads another configuration file`;
    let setting: string | undefined;
    if (w === "-o" || w === "--option") setting = words[++i] ?? "";
    else if (/^-o./.test(w)) setting = w.slice(2);
    else if (w.startsWith("--option=")) setting = w.slice("--option=".length);
    if (setting !== undefined) {
      const key = setting.split("=")[0] as string;
      if (RISKY_APT_KEY.test(key))
        return `-o ${setting.slice(0, 100)}: an apt setting that runs a program, names other programs or trees, or loosens its checks`;
      continue;
    }
    if (w.includes("/") || /\.deb$/i.test(w)) return `${w.slice(0, 100)}: a package or file by path, installed or read as root`;
  }
  return null;
}

function cronAptAction(text: string): Mark[] {
  const out: Mark[] = [];
  for (const line of lines(text)) {
    if (comment(line) || line.trim() === "") continue;
    const why = aptArgumentsWhy(line);
    if (why) out.push(mark(4, `cron-apt runs apt-get with ${why}`));
  }
  return out;
}

function cronAptSettings(text: string): Mark[] {
  const out: Mark[] = [];
  for (const line of lines(text)) {
    const m = /^\s*(?:export\s+)?([A-Za-z_]\w*)=(.*)$/.exec(line);
    if (!m || comment(line)) continue;
    const [name, value] = [m[1] as string, unquote(m[2] as string)];
    if (name === "APTCOMMAND" && (unpackaged(shellWords(value)[0] ?? "") || !/(?:^|\/)(?:apt-get|aptitude|apt)$/.test(value.trim())))
      out.push(mark(4, `APTCOMMAND=${value.slice(0, 100)}: cron-apt runs this as root in place of apt-get`));
    else if (/DIR$/.test(name) && (!/^\/etc\/cron-apt(?:\/|$)/.test(value) || value.includes("..")))
      out.push(mark(4, `${name}=${value.slice(0, 100)}: cron-apt's actions or their settings from outside /etc/cron-apt`));
    else if (name === "OPTIONS") {
      const why = aptArgumentsWhy(value);
      if (why) out.push(mark(4, `OPTIONS: cron-apt runs apt-get with ${why}`));
    }
  }
  return out;
}

/** auto.master: every map must be a file under /etc's autofs names, a directory service, or a built-in (-hosts, -null). */
function autoMaster(text: string): Mark[] {
  const out: Mark[] = [];
  for (const line of lines(text)) {
    if (comment(line) || line.trim() === "") continue;
    const words = line.trim().split(/\s+/);
    const first = words[0] as string;
    const map = first.startsWith("+") ? first.slice(1) : (words[1] ?? "");
    if (map === "" || /^-(?:hosts|null|static)$/.test(map)) continue;
    const typed = /^([a-z]+)(?:,[a-z]+)?:(.*)$/.exec(map);
    const where = typed ? (typed[2] as string) : map;
    if (typed && /^(?:program|exec)$/.test(typed[1] as string))
      out.push(mark(4, `${first}: a program map (${where.slice(0, 100)}) automount runs as root for every key`));
    else if (where.includes("/") && (!/^\/etc\/(?:auto[^/]*|auto\.master\.d\/[^/]+|autofs\/.+)$/.test(where) || where.includes("..")))
      out.push(mark(4, `${first}: map ${where.slice(0, 100)} outside /etc's autofs names (an executable map runs as root)`));
  }
  return out;
}

export function runnerMarks(path: string, text: string): Mark[] {
  if (CRON_APT_ACTION.test(path)) return cronAptAction(text);
  if (CRON_APT_SETTINGS.test(path)) return cronAptSettings(text);
  if (AUTO_MASTER.test(path)) return autoMaster(text);
  return [];
}

/** An automounter map file made executable: automount runs it as root as a program map. */
export function executableMap(path: string, mode: number): Mark[] {
  return /^\/etc\/auto\.(?!master$)[^/]+$/.test(path) && (mode & 0o111) !== 0
    ? [mark(4, `${path}: an executable automounter map — automount runs it as root as a program map`)]
    : [];
}

// A service's environment file (/etc/default/*, /etc/sysconfig/*, /etc/conf.d/*, apache2's envvars) holds its
// daemon's command-line options: Debian's dnsmasq, haproxy, smartd, irqbalance, rsync, rsyslog and named units (or
// the init scripts they run) put `$DNSMASQ_OPTS` and the like on the root daemon's command line. Review 50: an
// option there that names a program or another configuration file (`--dhcp-script=`, `--policyscript=`, `-f FILE`,
// `-c FILE`, `--config=`) or the user it runs as (`-u root`) gave root's code through one plain-looking assignment,
// which both judges passed as "plain values". Such an option, and any absolute path outside the packaged trees and
// the daemons' data places, is refused; plain values (LANG, TZ, ENABLED=1, `--local-service`) stay as they were.
import { posix } from "node:path";
import { comment, joined, type Mark, mark, shellWords, unquote } from "./runs-later-content.js";

/** Trees packages own (not /usr/local), and the places daemons keep data, logs, pid files, sockets and locks. */
const QUIET_PLACE =
  /^\/(?:usr\/(?!local\/)|bin\/|sbin\/|lib\/|lib32\/|lib64\/|libx32\/|var\/(?:lib|log|cache|run|lock|spool)\/|run\/|dev\/|proc\/|sys\/)/;
/** Long options naming a program, a script, a hook or another configuration file the daemon runs or reads. */
const PROGRAM_OPTION = /^--?[\w-]*(?:script|program|exec|hook|command|cmd|conf|config|rcfile|plugin|module|preload|include)[\w-]*(?:=|$)/i;
/** Short options that take a configuration file or a program in most daemons (haproxy, keepalived, rsyslogd, smartd; cronie's `-m` mailer). */
const FILE_OPTION = /^-[fcCm]$/;
/** Options that open a root daemon to anyone who reaches it, or make it run what another place holds (review 51). */
const OPEN_OPTION = /^--(?:pod-manifest-path|manifest-url|anonymous-auth=true|authorization-mode=AlwaysAllow|enable-debugging-handlers)\b/;
/** Options that choose the user (or group) the daemon runs as. */
const USER_OPTION = /^(?:-[uUg]|--(?:user|group|uid|gid|runas|run-as)(?:=.*)?)$/;
/** Variables naming the user or group a daemon runs as (APACHE_RUN_USER, DAEMON_USER, RUNAS …). */
const USER_VARIABLE = /(?:^|_)(?:USER|GROUP|UID|GID|RUNAS|RUN_AS|OWNER)$/i;
const ROOT = /^(?:root|0)$/;
const ENV_LINE = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/;

/** Why a value's words hand the daemon a program, another configuration or root, or null. */
function optionWhy(words: string[]): string | null {
  for (let i = 0; i < words.length; i++) {
    const w = words[i] as string;
    const next = words[i + 1] ?? "";
    if (PROGRAM_OPTION.test(w) && (w.includes("=") || (next !== "" && !next.startsWith("-"))))
      return `${w}${w.includes("=") ? "" : ` ${next}`}: names a program or configuration the root daemon runs or reads`;
    if (FILE_OPTION.test(w) && next !== "" && !next.startsWith("-") && (next.includes("/") || /\.(?:conf|cfg|cf|ini)$/.test(next)))
      return `${w} ${next}: names a configuration file or a program for the root daemon`;
    // dockerd's API on TCP without client certificates: whoever reaches the port is root (review 51).
    const host = /^(?:-H|--host)(?:=(.*))?$/.exec(w);
    const listen = host ? (host[1] ?? next) : "";
    if (/^(?:tcp|http):\/\//i.test(listen) && !words.some((x) => /^--tlsverify(?:=true)?$/.test(x)))
      return `${w}${host?.[1] === undefined ? ` ${next}` : ""}: serves the root daemon's API over TCP without TLS client certificates`;
    if (OPEN_OPTION.test(w)) return `${w}: the daemon runs what another place holds, or serves its API to anyone (root on the host)`;
    if (USER_OPTION.test(w)) {
      const user = w.includes("=") ? w.slice(w.indexOf("=") + 1) : next;
      if (ROOT.test(user)) return `${w}${w.includes("=") ? "" : ` ${next}`}: runs the daemon as root`;
    }
  }
  return null;
}

/** Every absolute path a value names, as words, option values (`--x=/p`) and list entries (`a:/p`, `a,/p`). */
function pathsIn(value: string): string[] {
  return [...value.matchAll(/(?:^|[\s=:,'"])(\/(?!\/)[^\s:,'"$;)]*)/g)].map((m) => m[1] as string).filter((p) => p.length > 1);
}

/** The marks of a service's environment file: options naming programs, configuration or root; paths outside quiet places. */
export function daemonOptionMarks(text: string): Mark[] {
  const out: Mark[] = [];
  for (const line of joined(text)) {
    const m = ENV_LINE.exec(line);
    if (!m || comment(line)) continue;
    const name = m[1] as string;
    const value = unquote(m[2] as string);
    if (USER_VARIABLE.test(name) && ROOT.test(value)) {
      out.push(mark(4, `${name}=${value}: the daemon's processes run as root`));
      continue;
    }
    const why = optionWhy(shellWords(value));
    if (why) {
      out.push(mark(4, `${name}: ${why}`));
      continue;
    }
    // Temporary-directory variables name scratch space by design (the user places in it are judged by environmentFileMarks).
    if (/^(?:TMPDIR|TMP|TEMP|TEMPDIR)$/.test(name)) continue;
    const outside = pathsIn(value).find((p) => !QUIET_PLACE.test(posix.normalize(p)) || p.includes(".."));
    if (outside)
      out.push(
        mark(4, `${name}=${value}: names ${outside}, outside the packaged trees — a program, library or configuration for root's daemon`),
      );
  }
  return out;
}

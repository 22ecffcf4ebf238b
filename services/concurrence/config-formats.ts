// Configuration formats whose lines run commands or decide what runs:
// udev rules (RUN, PROGRAM, IMPORT{program}; who owns the devices),
// modprobe.d (install/remove commands), logrotate (scripts, helper
// programs, includes), sysctl (the kernel's own helper programs), pam_env
// and environment.d files, apt sources (trust) and git configuration
// (programs git starts). Each returns the commands to judge and what the
// format itself decides.
import { posix } from "node:path";
import { judgeAssignment, unquote } from "./assignments.js";
import { commentInContinuation, configLines, HASH_WORD, specifiersAsDynamic } from "./config-lines.js";
import { DAEMON_GRANTS } from "./daemon-grants.js";
import { type DaemonHook, MORE_DAEMON_HOOKS, moreHookCommands } from "./daemon-hooks-more.js";
import { laterKind, laterKindInside } from "./later-paths.js";
import { judgeWrite, literalPath, rootsPlace } from "./paths.js";
import { sectionFindings } from "./section-formats.js";
import { type Extracted, extracted, finding, type JudgeContext } from "./types.js";

const UDEV_PAIR = /([A-Z_]+)(?:\{([^}]*)\})?\s*(==|!=|\+=|-=|:=|=)\s*"((?:[^"\\]|\\.)*)"/g;

export function udevCommands(text: string): Extracted {
  const out = extracted();
  const continued = commentInContinuation(text);
  if (continued !== undefined) out.findings.push(finding(4, `line ${continued}: a comment inside a continued rule`));
  for (const line of configLines(text, /^#/)) {
    const where = `rule line ${line.n}`;
    const leftover = line.text.replace(UDEV_PAIR, "").replace(/[\s,]/g, "");
    if (leftover) out.findings.push(finding(4, `${where}: not a udev rule the concurrence can read`));
    for (const [, key, attr, op, value = ""] of line.text.matchAll(UDEV_PAIR)) {
      const assigns = op === "=" || op === "+=" || op === ":=";
      if ((key === "RUN" && assigns && attr !== "builtin") || key === "PROGRAM" || (key === "IMPORT" && attr === "program")) {
        out.commands.push({ text: specifiersAsDynamic(value), where: `${where} ${key}` });
        if (HASH_WORD.test(value))
          out.findings.push(finding(4, `${where} ${key}: a word starting with # is an argument to udev, a comment to the judge`));
      } else if (key === "MODE" && assigns && (!/^[0-7]{3,4}$/.test(value) || (parseInt(value, 8) & 0o6002) !== 0)) {
        out.findings.push(finding(4, `${where}: gives devices mode ${value} (writable by anyone, or set-id)`));
      } else if (key === "OWNER" && assigns && value !== "root" && value !== "0") {
        out.findings.push(finding(4, `${where}: hands devices to ${value}`));
      } else if (
        (key === "GROUP" || key === "OWNER") &&
        assigns &&
        /\b(SUBSYSTEM|KERNEL)=="[^"]*(block|sd|nvme|vd|hd|xvd|mmcblk|dm-|md|loop|mem|kmem|port)/.test(line.text)
      ) {
        out.findings.push(finding(4, `${where}: gives ${value} raw disks or memory`));
      } else if (key === "SYSCTL" || (key === "IMPORT" && attr === "file")) {
        out.findings.push(finding(4, `${where}: ${key}{${attr ?? ""}} sets kernel parameters or reads settings from another file`));
      }
    }
  }
  return out;
}

export function modprobeCommands(text: string): Extracted {
  const out = extracted();
  for (const line of configLines(text, /^#/)) {
    const m = /^(install|remove)\s+(\S+)\s+(.+)$/.exec(line.text);
    if (m?.[3]) out.commands.push({ text: m[3], where: `line ${line.n} (${m[1]} ${m[2]})` });
  }
  return out;
}

const SCRIPT_START = /^(prerotate|postrotate|firstaction|lastaction|preremove)$/;

/**
 * A log logrotate rotates: it is moved away and (create) made anew, owned as
 * the block says. A file whose content runs later, one the system needs, or
 * agent-sudo's own, is not a log: rotating it hands it to whoever `create`
 * names, or empties it.
 */
function rotatedFinding(spec: string, n: number, ctx: JudgeContext) {
  const path = spec.replace(/^"(.*)"$/, "$1");
  if (!path.startsWith("/") || path.includes("..")) return finding(4, `line ${n}: rotates ${path}, not an absolute path`);
  const fixed = path.slice(0, path.search(/[*?[{]|$/));
  const dir = fixed.endsWith("/") || fixed !== path ? fixed.slice(0, fixed.lastIndexOf("/")) || "/" : undefined;
  if (laterKind(path) || (dir !== undefined && laterKindInside(dir)))
    return finding(4, `line ${n}: rotates ${path}, whose content runs later: its new file is created as the block says`);
  const write = judgeWrite(literalPath(dir ?? path), ctx);
  return write.tier === 4 ? finding(4, `line ${n}: rotates ${path}: ${write.reason}`) : finding(0, "");
}

export function logrotateCommands(text: string, ctx: JudgeContext): Extracted {
  const out = extracted();
  let block = false;
  let rotated: string[] = [];
  let script: { name: string; n: number; lines: string[] } | undefined;
  text.split("\n").forEach((raw, i) => {
    const line = raw.trim();
    if (script) {
      if (line === "endscript") {
        out.commands.push({ text: script.lines.join("\n"), where: `${script.name} script (line ${script.n})` });
        script = undefined;
      } else script.lines.push(raw);
      return;
    }
    if (SCRIPT_START.test(line)) script = { name: line, n: i + 1, lines: [] };
    // The files a block rotates: the words before its `{` (paths, quoted or globbed).
    if (!block && !line.startsWith("#") && /^["/]/.test(line)) {
      rotated = line.replace(/\{.*$/, "").trim().split(/\s+/).filter(Boolean);
      for (const spec of rotated) out.findings.push(rotatedFinding(spec, i + 1, ctx));
    }
    if (line.includes("{")) block = true;
    if (line.includes("}")) block = false;
    const [directive, arg = ""] = line.split(/\s+/, 2);
    // `su USER GROUP`: the files are rotated as that user (at the top level: every block after it, other files' too).
    if (directive === "su" && !/^(root|0)$/.test(arg) && (!block || rotated.some((r) => !/^"?\/var\/log\/(?!.*\.\.)/.test(r))))
      out.findings.push(
        finding(4, `line ${i + 1}: su ${arg}: files root owns are rotated as ${arg}${block ? "" : " (every block after it)"}`),
      );
    // Which names in logrotate.d are read or skipped (without "+", tabooext replaces the whole list).
    if (directive === "tabooext" || directive === "taboopat")
      out.findings.push(finding(4, `line ${i + 1}: ${directive} changes which files of logrotate.d are read`));
    if ((directive === "olddir" || directive === "createolddir") && arg.startsWith("/") && !/^\/var\/log\/[^.]/.test(arg))
      out.findings.push(finding(4, `line ${i + 1}: ${directive} ${arg}: rotated logs land outside /var/log`));
    // `createolddir MODE`: root then moves logs into a directory others may write (and plant links in).
    if (directive === "createolddir" && /^[0-7]{3,4}$/.test(arg) && parseInt(arg, 8) & 0o022)
      out.findings.push(finding(4, `line ${i + 1}: createolddir ${arg}: the directory of rotated logs is writable by others`));
    if ((directive === "olddir" || directive === "createolddir") && arg.includes(".."))
      out.findings.push(finding(4, `line ${i + 1}: ${directive} ${arg} climbs out of the log's directory`));
    if (directive === "compressoptions" && !/^(-[A-Za-z0-9]+\s*)*$/.test(line.slice(directive.length).trim()))
      out.findings.push(finding(4, `line ${i + 1}: compressoptions hands the compressor words other than flags`));
    // What it includes is read as logrotate's configuration (scripts included): only what was judged as such (review 47).
    if (
      directive === "include" &&
      !(/^\/etc\/[^.]/.test(arg) && (laterKind(arg)?.kind === "logrotate" || laterKindInside(arg)?.kind === "logrotate"))
    )
      out.findings.push(
        finding(4, `line ${i + 1}: includes ${arg}, which is not logrotate's own configuration (its content was never judged as such)`),
      );
    // `mail ADDRESS`: the rotated logs (auth.log among them) are mailed there.
    const mailed = line.startsWith("#") ? undefined : /(?:^|[\s{;])mail\s+"?([^\s"}]+)/.exec(line)?.[1];
    if (mailed && !/^root(@localhost)?$/.test(mailed))
      out.findings.push(finding(4, `line ${i + 1}: mail ${mailed}: root's logs are sent to another`));
    if (directive === "compresscmd" || directive === "uncompresscmd")
      out.commands.push({ text: arg, where: `line ${i + 1} (${directive})` });
    if (directive === "create" && /^[0-7]{3,4}$/.test(arg) && Number.parseInt(arg, 8) & 0o022)
      out.findings.push(finding(4, `line ${i + 1}: create ${arg} leaves the rotated file writable by others`));
  });
  if (script) out.findings.push(finding(4, `${script.name} script (line ${script.n}) never ends`));
  return out;
}

/** Kernel parameters naming a program the kernel itself runs as root (binfmt_misc's register: an interpreter for matching files). */
const KERNEL_HELPER = /^(kernel\.(core_pattern|modprobe|hotplug|poweroff_cmd)|fs\.binfmt_misc\.register)$/;

/** Kernel parameters that are protections (link and dump restrictions, ptrace scope, ASLR, module and kexec locks). */
const KERNEL_PROTECTION =
  /^(fs\.protected_[a-z]+|fs\.suid_dumpable|kernel\.(yama\.ptrace_scope|kptr_restrict|dmesg_restrict|randomize_va_space|unprivileged_bpf_disabled|kexec_load_disabled|modules_disabled|sysrq|perf_event_paranoid)|vm\.mmap_min_addr|user\.max_user_namespaces)$/;

export function sysctlFindings(text: string): Extracted {
  const out = extracted();
  for (const line of configLines(text)) {
    const key = /^-?\s*([^=\s]+)\s*=/.exec(line.text)?.[1]?.replace(/\//g, ".");
    if (key && KERNEL_HELPER.test(key)) out.findings.push(finding(4, `line ${line.n}: sets ${key}, a program the kernel runs as root`));
    else if (key && /[*?[]/.test(key))
      out.findings.push(finding(4, `line ${line.n}: ${key} is a pattern; which settings it sets is not known`));
    else if (key && KERNEL_PROTECTION.test(key)) out.findings.push(finding(4, `line ${line.n}: sets ${key}, a kernel protection`));
  }
  return out;
}

/**
 * Names that, set for every session, choose code, configuration, trust or a route (VIMINIT, OPENSSL_CONF, https_proxy …);
 * bash's prompts expand `$(…)` (PS1, PS4 under `set -x`), VISUAL and *ASKPASS are programs, LESS takes --lesskey-src,
 * TERMINFO the terminal's strings, DOCKER_HOST the daemon root talks to, PYTHONWARNINGS a module Python imports.
 */
const SESSION_RISKY =
  /(INIT|CONF|CONFIG|RC|PROXY|CERT|_CA|CA_|TLS|SSL|HOOK|EDITOR|PAGER|BROWSER|INDEX|TRUSTED|REGISTRY|HOME|OPT|OPTS|OPTIONS|FLAGS|WRAPPER|PRELOAD|LIBRARY|ALIASES|DB|KEY|SSH|DIFF|SHELL|ENV|STARTUP|PLUGIN|DIR|FILE|_URL|GCONV|LOCPATH|NLSPATH|VISUAL|ASKPASS|TERMINFO|DOCKER_HOST|PYTHONWARNINGS|^PS[0-4]$|^LESS$)/i;

export function environmentFindings(text: string): Extracted {
  const out = extracted();
  for (const line of configLines(text, /^#/)) {
    // An exported bash function (`BASH_FUNC_ls%%=() { …; }`): every bash started from the session runs it as `ls`.
    if (/^(export\s+)?BASH_FUNC_/.test(line.text))
      out.findings.push(finding(4, `line ${line.n}: defines a bash function every session's bash imports`));
    const m = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*(?:DEFAULT|OVERRIDE)?\s*=\s*(.*)$/.exec(line.text);
    if (!m?.[1]) continue;
    out.findings.push(judgeAssignment(m[1], unquote(m[2] ?? ""), `line ${line.n}`));
    if (m[1] !== "PATH" && SESSION_RISKY.test(m[1]))
      out.findings.push(finding(4, `line ${line.n}: sets ${m[1]} for every session (code, configuration, trust or a route)`));
  }
  return out;
}

export function aptSourcesFindings(text: string): Extracted {
  const out = extracted();
  for (const line of configLines(text, /^#/)) {
    if (/trusted\s*[=:]\s*yes|allow-(insecure|weak|downgrade-to-insecure)\s*[=:]\s*yes/i.test(line.text)) {
      out.findings.push(finding(4, `line ${line.n}: trusts a package source without its signature`));
    }
    // deb822's Signed-By may hold the key itself: a new source with its own key is a new root of trust.
    if (/BEGIN PGP PUBLIC KEY BLOCK/.test(line.text) || /^\s*signed-by\s*:\s*$/i.test(line.text))
      out.findings.push(finding(4, `line ${line.n}: a package source that carries its own signing key`));
  }
  return out;
}

/** Git settings whose value is a program git starts (or where its hooks are). */
const GIT_PROGRAM =
  /^(fsmonitor|sshcommand|pager|editor|hookspath|askpass|textconv|clean|smudge|process|helper|program|gitproxy|command|uploadpack|receivepack|cmd|externaldiff|sequenceeditor|external|driver|packobjectshook|alternaterefscommand|templatedir|sendmailcmd|smtpserver|defaultkeycommand|difffilter|tocmd|cccmd|httpd)$/;
/** Sections whose `path` is a program git starts (`difftool.<tool>.path`, `browser.<name>.path` …). */
const PATH_IS_PROGRAM = /^(difftool|mergetool|browser|man|gpg|instaweb)$/;

/** A git URL as written in a value or a `[url "…"]` subsection: quotes and the subsection's dot off. */
const bareUrl = (url: string): string =>
  unquote(
    url
      .trim()
      .replace(/^\.?"?|"$/g, "")
      .trim(),
  );

/** Where a git URL (or its prefix) leads: host and path (`git@github.com:corp/` and `https://github.com/corp/` alike). */
function siteOf(url: string): string {
  const u = bareUrl(url);
  const m = /^[a-z][a-z0-9+.-]*:\/\/(?:[^/@]*@)?(?:\[[^\]]*\]|[^/:?#]*)(?::\d*)?(.*)$/i.exec(u) ?? /^(?:[^/@:]*@)?[^/:]+:(.*)$/.exec(u);
  return `${hostOf(url)}/${(m?.[1] ?? u).replace(/^\/+|\/+$/g, "").replace(/\.git$/, "")}`;
}

/** The host a git URL or a `[url "…"]` subsection names (lower case), "" when none. */
function hostOf(url: string): string {
  const u = bareUrl(url);
  const m = /^[a-z][a-z0-9+.-]*:\/\/(?:[^/@]*@)?(\[[^\]]*\]|[^/:?#]*)/i.exec(u) ?? /^(?:[^/@:]*@)?([^/:]+):/.exec(u);
  return (m?.[1] ?? "").toLowerCase();
}

/** A leading `~` (the reader's home, `self`) or `~user` (that user's: nano and git expand both). */
const tilde = (v: string, self = "/root"): string =>
  v.replace(/^~([a-z_][a-z0-9_-]*)?(?=\/|$)/, (_m, u?: string) => (u === undefined ? self : u === "root" ? "/root" : `/home/${u}`));
/**
 * nano's configuration: `set speller|linter|formatter`, a syntax's `linter`
 * and `formatter` (also through `extendsyntax`) are commands nano runs as
 * whoever edits (root too); `include` must name files only root writes.
 */
export function nanorcCommands(text: string): Extracted {
  const out = extracted();
  // nano reads line by line: a backslash at the end does not join the next line (`set tabsize 4 \` + `set speller …`).
  const rc = text.split("\n").map((l, i) => ({ text: l.replace(/\r$/, "").trim(), n: i + 1 }));
  for (const line of rc.filter((l) => l.text && !l.text.startsWith("#"))) {
    const cmd =
      /^set\s+(speller|linter|formatter)\s+(.*)$/i.exec(line.text) ??
      /^(linter|formatter)\s+(.*)$/i.exec(line.text) ??
      /^extendsyntax\s+\S+\s+(linter|formatter)\s+(.*)$/i.exec(line.text);
    if (cmd?.[2]) out.commands.push({ text: unquote(cmd[2]), where: `line ${line.n} (${cmd[1]})` });
    const inc = /^include\s+(.*)$/i.exec(line.text);
    if (inc?.[1]) {
      const path = tilde(unquote(inc[1]));
      if (!rootsPlace(path.replace(/\/[^/]*[*?[][^/]*$/, "")))
        out.findings.push(finding(4, `line ${line.n}: includes ${path}, which others may write (its linters run too)`));
    }
  }
  return out;
}

/** Groups that are root or hold what root keeps: sudo, disks, logs, shadow, container daemons, /usr/local (staff). */
const PRIVILEGED_GROUPS = new Set(
  "0 root sudo wheel admin adm shadow disk kmem docker lxd incus libvirt kvm systemd-journal staff src sys tty lpadmin netdev".split(" "),
);

/** adduser.conf and /etc/default/useradd: the skeleton new homes are copied from is root's; new users join no privileged group. */
export function accountDefaultsFindings(text: string): Extracted {
  const out = extracted();
  for (const line of configLines(text, /^#/)) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(line.text);
    if (!m?.[1]) continue;
    const [name, value] = [m[1].toUpperCase(), unquote(m[2] ?? "")];
    if (name === "SKEL" && !rootsPlace(value))
      out.findings.push(finding(4, `line ${line.n}: SKEL=${value}: new users' start-up files come from a place others may write`));
    if (/^(EXTRA_GROUPS|GROUPS|GROUP|USERS_GID|USERS_GROUP)$/.test(name)) {
      const bad = value.split(/[\s,]+/).filter((g) => PRIVILEGED_GROUPS.has(g));
      if (bad.length > 0) out.findings.push(finding(4, `line ${line.n}: ${name}=${value}: new users join ${bad.join(", ")}`));
    }
  }
  return out;
}

export function gitconfigFindings(text: string, path = ""): Extracted {
  // A home's own configuration may name that home's files.
  const home = /^\/home\/[^/]+\//.exec(path)?.[0];
  const out = extracted();
  let section = "";
  let subsection = "";
  for (const line of configLines(text, /^[#;]/)) {
    const header = /^\[([^\]]+)\](.*)$/.exec(line.text);
    let entry = line.text;
    if (header?.[1]) {
      section = header[1].trim().split(/[\s.]/)[0]?.toLowerCase() ?? "";
      subsection = header[1].trim().slice(section.length);
      if (section === "include" || section === "includeif")
        out.findings.push(finding(4, `line ${line.n}: includes other git configuration`));
      // git reads a setting on the header's own line too (`[core] fsmonitor = x`).
      entry = (header[2] ?? "").trim();
      if (!entry || /^[#;]/.test(entry)) continue;
    }
    const [key = "", value = ""] = entry.split(/=(.*)/s).map((s) => s.trim());
    const name = key.toLowerCase();
    if (section === "safe" && name === "directory")
      out.findings.push(finding(4, `line ${line.n}: safe.directory ${value}: git then obeys the configuration of repositories others own`));
    // git's defence against bare repositories embedded in a clone (whose config names programs git runs).
    if (section === "safe" && name === "barerepository" && !/^"?explicit"?$/i.test(value))
      out.findings.push(finding(4, `line ${line.n}: safe.bareRepository ${value}: git then obeys bare repositories embedded in clones`));
    if (section === "url" && (name === "insteadof" || name === "pushinsteadof") && siteOf(subsection) !== siteOf(value))
      out.findings.push(
        finding(4, `line ${line.n}: url.${name} ${value}: git fetches or pushes another host's (or owner's) repository in its stead`),
      );
    // Attributes choose which filters and diff/merge drivers run on which files; excludes hide files from root's commits.
    const named = tilde(unquote(value), home ? home.slice(0, -1) : "/root");
    if (
      section === "core" &&
      (name === "attributesfile" || name === "excludesfile") &&
      !rootsPlace(named) &&
      !(home && named.startsWith(home))
    )
      out.findings.push(finding(4, `line ${line.n}: core.${name} ${value}: read from a place others may write`));
    // Cookies git sends with every request come from this file (root's are saved there with http.saveCookies).
    if (section === "http" && name === "cookiefile" && !rootsPlace(named) && !(home && named.startsWith(home)))
      out.findings.push(finding(4, `line ${line.n}: http.cookieFile ${value}: cookies from (and saved to) a place others may write`));
    // Where git checks out every repository, and whose SSH signatures it accepts: root's (or the home's own).
    if (
      ((section === "core" && name === "worktree") || (section === "gpg" && /^(allowedsignersfile|revocationfile)$/.test(name))) &&
      !rootsPlace(named) &&
      !(home && named.startsWith(home))
    )
      out.findings.push(finding(4, `line ${line.n}: ${section}.${name} ${value}: a place others may write`));
    // Headers sent with every request of root's git (or the system's): a credential or an identity for any host it reaches.
    if (section === "http" && name === "extraheader" && (path === "/etc/gitconfig" || path.startsWith("/root/")))
      out.findings.push(finding(4, `line ${line.n}: http.extraHeader: a header root's git sends with every request`));
    if ((section === "http" || section === "remote") && name === "proxy" && value)
      out.findings.push(
        finding(4, `line ${line.n}: ${section}.proxy ${value}: git's traffic and the credentials it sends go through that host`),
      );
    if (section === "http" && name === "sslverify" && /^"?(false|no|off|0)"?$/i.test(value))
      out.findings.push(finding(4, `line ${line.n}: http.sslVerify ${value}: git no longer checks whom it talks to`));
    if (section === "http" && (name === "sslcainfo" || name === "sslcapath") && !rootsPlace(tilde(unquote(value))))
      out.findings.push(finding(4, `line ${line.n}: http.${name} ${value}: certificates from a place others may write`));
    const runs =
      GIT_PROGRAM.test(name) ||
      (name === "path" && PATH_IS_PROGRAM.test(section)) ||
      (section === "alias" && value.replace(/^"/, "").startsWith("!")) ||
      // `git submodule update` runs a `!command` update mode given anywhere but .gitmodules.
      (section === "submodule" && name === "update" && unquote(value).startsWith("!")) ||
      section === "pager";
    // The ext:: transport runs its URL as a command; protocol.*.allow can switch it on.
    if (runs || section === "include" || section === "includeif" || section === "protocol" || /^"?ext::/.test(value)) {
      out.findings.push(finding(4, `line ${line.n}: ${section}.${name} makes git run ${value || "a program"}`));
    }
  }
  return out;
}

/** Variables that choose the code a program loads: the loader's, the interpreters', a shell's start-up file. */
const CHOOSES_CODE =
  /^(LD_[A-Z_]+|BASH_ENV|ENV|PATH|PYTHON(PATH|STARTUP|HOME)|PERL5(LIB|OPT)|PERLLIB|RUBY(LIB|OPT)|NODE_(OPTIONS|PATH)|GCONV_PATH)$/;

/**
 * supervisord's ini files: `command=` of [program:x], [eventlistener:x] and [fcgi-program:x] is a command supervisord
 * (root) starts — judged as root's, since `user=` only drops privileges when supervisord may; `directory=` is where
 * it starts (its relative words are read there); `environment=` must not choose the code it loads; `[include] files=`
 * must stay in /etc. An indented line continues the value above it.
 */
export function supervisorCommands(text: string): Extracted {
  const out = extracted();
  const entries: Array<{ text: string; n: number }> = [];
  text.split("\n").forEach((raw, i) => {
    const last = entries[entries.length - 1];
    if (/^\s+\S/.test(raw) && last && !/^\s*[#;]/.test(raw)) last.text += ` ${raw.trim()}`;
    else entries.push({ text: raw.trim(), n: i + 1 });
  });
  let section = "";
  const programs = new Map<string, { command?: { text: string; n: number }; directory?: string }>();
  for (const e of entries) {
    if (e.text === "" || /^[#;]/.test(e.text)) continue;
    const head = /^\[([^\]]*)\]/.exec(e.text);
    if (head) {
      section = (head[1] ?? "").trim().toLowerCase();
      continue;
    }
    const m = /^([A-Za-z_][\w.-]*)\s*[=:]\s*(.*)$/.exec(e.text);
    if (!m) {
      out.findings.push(finding(4, `line ${e.n}: not a supervisord setting the concurrence can read`));
      continue;
    }
    const key = (m[1] ?? "").toLowerCase();
    const value = (m[2] ?? "").replace(/\s+;.*$/, "").trim();
    const program = programs.get(section) ?? {};
    programs.set(section, program);
    if (key === "command") program.command = { text: value, n: e.n };
    if (key === "directory") program.directory = value;
    if (key === "environment")
      for (const pair of value.matchAll(/([A-Za-z_]\w*)\s*=/g))
        if (CHOOSES_CODE.test(pair[1] ?? ""))
          out.findings.push(finding(4, `line ${e.n}: environment sets ${pair[1]}, which chooses the code [${section}] loads`));
    if (section === "include" && key === "files")
      for (const f of value.split(/\s+/))
        if (f.startsWith("/") && !/^\/etc\/[^.]/.test(f)) out.findings.push(finding(4, `line ${e.n}: includes ${f}, outside /etc`));
  }
  for (const [section, p] of programs) {
    if (!p.command) continue;
    if (/%\(ENV_/.test(p.command.text))
      out.findings.push(
        finding(4, `line ${p.command.n}: [${section}] command takes values from supervisord's environment, only known when it starts`),
      );
    if (p.directory !== undefined && !rootsPlace(p.directory))
      out.findings.push(finding(4, `[${section}] directory=${p.directory}: its relative words are read from a place others may write`));
    out.commands.push({ text: p.command.text, where: `line ${p.command.n} ([${section}] command)`, runAs: "", cwd: p.directory ?? "/" });
  }
  return out;
}

/** Programs that, given no script, run what comes on their standard input (a connection, for a network service). */
const READS_STDIN_CODE =
  /^(sh|bash|dash|ash|ksh|mksh|zsh|fish|busybox|python[0-9.]*|perl[0-9.]*|ruby[0-9.]*|node(js)?|php[0-9.]*|lua[0-9.]*|tclsh[0-9.]*|awk|gawk|mawk|env)$/;

const MONIT = /^\/etc\/(monit\/.|monitrc$|monit\.d\/.)/;
const APACHE = /^\/etc\/(apache2|httpd)\/./;
const SNMPD = /^\/(etc\/snmp\/snmpd(\.local)?\.conf(\.d\/.+)?|var\/lib\/(net-)?snmp\/snmpd\.conf)$/;
const CUPS_FILES = /^\/etc\/cups\/cups-files\.conf$/;
const WGETRC = /^\/(usr\/local\/)?etc\/wgetrc$/;
const MUTTRC = /^\/(etc\/Muttrc(\.d\/.+)?|root\/\.muttrc|root\/\.mutt\/.+|root\/\.config\/mutt\/.+)$/;
/** wget's commands (case-, `_`- and `-`-insensitive) that send root's files, put its downloads elsewhere or trust another's server. */
const WGET_WEAK =
  /^(outputdocument|postfile|bodyfile|dirprefix|logfile|savecookies|httpproxy|httpsproxy|ftpproxy|useaskpass|cacertificate|cadirectory)$/;
const WGET_WEAK_OFF = /^(checkcertificate)$/;
const WGET_WEAK_ON = /^(contentdisposition|trustservernames)$/;
const ALIASES = /^\/etc\/(mail\/)?aliases$/;
/** One alias target after `name:` or a comma. */
const ALIAS_AT = '(?:^[^#:\\s][^:]*:|,)\\s*"?';

/**
 * Daemons' hook lines, each run by its daemon as root: wg-quick's PreUp/PostUp/PreDown/PostDown, OpenVPN's up, down,
 * route-up, ipchange, client-connect, learn-address, auth-user-pass-verify and tls-verify commands (and plugins, which
 * it loads), xinetd's server, inetd.conf's server and arguments, keepalived's notify and check scripts, rsyncd's
 * pre-/post-xfer exec; monit's exec, start/stop/restart programs and program checks; Apache's piped logs (`|cmd`,
 * `||cmd`, `|$cmd` through a shell) and RewriteMap prg:; snmpd's extend, exec and pass; the aliases' `|cmd`; the
 * programs of NetworkManager's VPN plugins; haproxy's external-check command, syslog-ng's program(), smartd's -M exec,
 * mdadm's PROGRAM, NUT's NOTIFYCMD/SHUTDOWNCMD/CMDSCRIPT, dnsmasq's dhcp-script, squid's helper programs, Postfix's
 * *_command and master.cf argv=, exim's pipe command. A network service whose server is an interpreter reads each
 * connection as code. `load`: a module or list read from the path (it must be root's); `sink`: a file appended to.
 */
const DAEMON_HOOKS: DaemonHook[] = [
  { file: /^\/etc\/wireguard\/[^/]+\.conf$/, line: /^\s*(PreUp|PostUp|PreDown|PostDown)\s*=\s*(.*)$/i },
  {
    file: /^\/etc\/openvpn\/./,
    line: /^\s*-{0,2}(up|down|route-up|route-pre-down|ipchange|client-connect|client-disconnect|learn-address|auth-user-pass-verify|tls-verify)\s+(.*)$/,
  },
  { file: /^\/etc\/openvpn\/./, line: /^\s*-{0,2}(plugin)\s+(.*)$/, load: true },
  { file: /^\/etc\/xinetd\.(conf$|d\/.)/, line: /^\s*(server)\s*\+?=\s*(.*)$/, served: true },
  { file: /^\/etc\/inetd\.conf$/, line: /^\s*(?!#)\S+\s+\S+\s+\S+\s+\S+\s+(\S+)\s+(.*)$/, served: true },
  // keepalived's blocks may sit on one line: `vrrp_script chk { script "/usr/bin/pgrep nginx" }`.
  { file: /^\/etc\/keepalived\/./, line: /(?:^|[\s{])(notify\w*|script)\s+("[^"]*"|[^\s}]+)/ },
  { file: /^\/etc\/rsyncd\.conf$/, line: /^\s*((?:pre|post)-xfer\s+exec)\s*=\s*(.*)$/ },
  { file: MONIT, line: /(?:^|\s)(exec|(?:start|stop|restart)\s+program\s*=)\s*("[^"]*"|\S+)/i },
  { file: MONIT, line: /^\s*check\s+program\s+\S+\s+(with\s+path)\s+("[^"]*"|\S+)/i },
  { file: APACHE, line: /^\s*(ErrorLog|CustomLog|TransferLog|GlobalLog|ForensicLog|CookieLog|RewriteLog|ScriptLog)\s+"?\|+\$?([^"]*)/i },
  { file: APACHE, line: /^\s*(RewriteMap)\s+\S+\s+"?prg:([^"]*)/i },
  { file: APACHE, line: /^\s*(LoadModule\s+\S+|LoadFile)\s+"?([^"\s]+)/i, load: true },
  { file: SNMPD, line: /^\s*(extend-sh|extendfix|extend|execfix|exec|sh)\s+(?:\.?\d[\d.]*\s+)?\S+\s+(.*)$/ },
  { file: SNMPD, line: /^\s*(pass_persist|pass)\s+(?:-p\s+\d+\s+)?\S+\s+(.*)$/ },
  { file: ALIASES, line: new RegExp(`${ALIAS_AT}(\\|)\\s*([^",]*)`) },
  { file: ALIASES, line: new RegExp(`${ALIAS_AT}(:include:)\\s*([^",\\s]*)`), load: true },
  { file: ALIASES, line: new RegExp(`${ALIAS_AT}()(/[^",\\s]*)`), sink: true },
  { file: /^\/etc\/NetworkManager\/VPN\/./, line: /^\s*(program|auth-dialog)\s*=\s*(.*)$/ },
  { file: /^\/etc\/NetworkManager\/VPN\/./, line: /^\s*(plugin|properties)\s*=\s*(.*)$/, load: true },
  { file: /^\/etc\/haproxy\/./, line: /^\s*(external-check\s+command)\s+(.*)$/ },
  { file: /^\/etc\/haproxy\/./, line: /^\s*(lua-load(?:-per-thread)?|lua-prepend-path)\s+"?([^"\s]+)/, load: true },
  { file: /^\/etc\/syslog-ng\/./, line: /(?:^|[\s{;])(program)\s*\(\s*("[^"]*"|'[^']*'|[^)\s]+)/ },
  { file: /^\/etc\/nginx\/./, line: /^\s*(load_module)\s+"?([^";\s]+)/, load: true },
  { file: /^\/etc\/(smartmontools\/)?smartd\.conf$/, line: /\s(-M\s+exec)\s+("[^"]*"|\S+)/ },
  { file: /^\/etc\/(mdadm\/)?mdadm\.conf$/, line: /^\s*(PROGRAM)\s+(.*)$/ },
  { file: /^\/etc\/nut\/./, line: /^\s*(NOTIFYCMD|SHUTDOWNCMD|CMDSCRIPT)\s+(.*)$/ },
  { file: /^\/etc\/dnsmasq\.(conf$|d\/.)/, line: /^\s*(dhcp-script|dhcp-luascript)\s*=\s*(.*)$/ },
  { file: /^\/etc\/squid\/./, line: /^\s*(\w+_program|auth_param\s+\S+\s+program|external_acl_type\s+.*?(?=\s\/))\s+(.*)$/ },
  { file: /^\/etc\/postfix\/./, line: /^\s*(\S*_command)\s*=\s*(.*)$/ },
  { file: /^\/etc\/postfix\/master\.cf$/, line: /\s(argv)=(.*)$/ },
  { file: /^\/etc\/exim4?\/./, line: /^\s*(command)\s*=\s*(.*)$/ },
  // snmpd with write access: whoever knows the community or user sets NET-SNMP-EXTEND-MIB's commands, which it runs as root.
  { file: SNMPD, line: /^\s*(rwcommunity6?|rwuser)\s*(.*)$/i, weak: () => "gives write access to snmpd, which runs commands it is sent" },
  {
    file: SNMPD,
    line: /^\s*(authcommunity|authuser)\s+(\S+)/i,
    weak: (v) => (/write/i.test(v) ? "gives write access to snmpd" : undefined),
  },
  {
    file: SNMPD,
    line: /^\s*(access)\s+((?:\S+\s+){6}\S+)/i,
    weak: (v) => (/^none$/i.test(v.split(/\s+/)[6] ?? "none") ? undefined : "a write view in snmpd's access"),
  },
  // apcupsd runs its SCRIPTDIR's event scripts as root.
  { file: /^\/etc\/apcupsd\/apcupsd\.conf$/, line: /^\s*(SCRIPTDIR|PWRFAILDIR|NOLOGINDIR)\s+"?([^"\s]+)/i, load: true },
  // cupsd: who administers it, its sandbox, file: printers (written as root), where its programs and files are.
  {
    file: CUPS_FILES,
    line: /^\s*(SystemGroup)\s+(.*)$/i,
    weak: (v) =>
      v.split(/\s+/).some((g) => !/^(root|sys|lpadmin|wheel|admin)$/.test(g))
        ? "makes a group's members cupsd's administrators"
        : undefined,
  },
  { file: CUPS_FILES, line: /^\s*(Sandboxing)\s+(\S+)/i, weak: (v) => (/^relaxed$/i.test(v) ? "relaxes cupsd's sandbox" : undefined) },
  {
    file: CUPS_FILES,
    line: /^\s*(FileDevice)\s+(\S+)/i,
    weak: (v) => (/^(yes|on|true)$/i.test(v) ? "lets printers write any file" : undefined),
  },
  {
    file: CUPS_FILES,
    line: /^\s*(User|Group)\s+(\S+)/i,
    weak: (v) => (/^(root|0)$/i.test(v) ? "runs cupsd's helpers as root" : undefined),
  },
  {
    file: CUPS_FILES,
    line: /^\s*(ServerBin|ServerRoot|DataDir|DocumentRoot|TempDir|RequestRoot|CacheDir|StateDir)\s+"?([^"\s]+)/i,
    load: true,
  },
  {
    file: CUPS_FILES,
    line: /^\s*(ErrorLog|AccessLog|PageLog)\s+"?([^"\s]+)/i,
    weak: (v) => (v.startsWith("/") && !SINK_PLACE.test(v) ? "cupsd writes its log there as root" : undefined),
  },
  {
    file: CUPS_FILES,
    line: /^\s*(\w*Perm)\s+(\S+)/i,
    weak: (v) => (!/^[0-7]{1,4}$/.test(v) || parseInt(v, 8) & 0o002 ? "the files cupsd makes are writable by anyone" : undefined),
  },
  // wget's system settings, read by root's later downloads.
  {
    file: WGETRC,
    line: /^\s*([A-Za-z_-]+)\s*=\s*(.*)$/,
    weak: (v, k) => {
      const name = k.toLowerCase().replace(/[-_]/g, "");
      const on = /^(on|yes|1|true)$/i.test(v.trim());
      if (WGET_WEAK.test(name) || (WGET_WEAK_OFF.test(name) && !on) || (WGET_WEAK_ON.test(name) && on))
        return "root's downloads are sent, written or fetched elsewhere";
      return undefined;
    },
  },
  // mutt: backquotes and `source "cmd|"` run when the file is read; the programs it starts.
  { file: MUTTRC, line: /(`)([^`]*)`/ },
  {
    file: MUTTRC,
    line: /^\s*(source)\s+["']?([^"'|]*)\|/,
    weak: () => "mutt reads a program's output as its configuration, whose backquotes run commands",
  },
  { file: MUTTRC, line: /^\s*(source)\s+["']?([^"'\s|]+)["']?\s*$/, load: true },
  {
    file: MUTTRC,
    line: /^\s*set\s+(?:\S+\s+)*?(sendmail|editor|visual|shell|inews|ispell|mixmaster|display_filter|tunnel|preconnect|\w+_command)\s*=\s*("[^"]*"|'[^']*'|\S+)/,
  },
  { file: MUTTRC, line: /^\s*set\s+(?:\S+\s+)*?(signature)\s*=\s*["']?([^"'|]*)\|/ },
];

/** A file a daemon may append others' text to: a mail spool, a log, nothing. */
const SINK_PLACE = /^\/(dev\/null$|var\/(spool\/)?mail\/|var\/log\/)/;

export function daemonHookCommands(text: string, path: string): Extracted {
  const more = moreHookCommands(text, path);
  const out = extracted(more.commands, [...sectionFindings(text, path), ...more.findings]);
  const rules = [...DAEMON_HOOKS, ...MORE_DAEMON_HOOKS, ...DAEMON_GRANTS].filter((h) => h.file.test(path));
  text
    .replace(/\\\n/g, " ")
    .split("\n")
    .forEach((line, i) => {
      if (/^\s*[#;]/.test(line)) return;
      // Where the daemon reads more configuration, or runs its relative hooks from (OpenVPN's config/cd, xinetd's
      // include(dir), keepalived's include, rsyncd's &include/&merge, Apache's Include(Optional), monit's include,
      // snmpd's includeFile/includeDir, syslog-ng's @include): it must be root's.
      const inc =
        /^\s*(?:-{0,2}(?:config|cd|tmp-dir)\s+|include(?:dir|file|optional)?\s+|&(?:include|merge)\s+|@include\s+)"?([^"\s]+)/i.exec(
          line,
        )?.[1];
      if (inc?.startsWith("/") && !rootsPlace(inc.replace(/\/[^/]*[*?[][^/]*$/, "")))
        out.findings.push(finding(4, `line ${i + 1}: ${line.trim().slice(0, 80)}: configuration or hooks from a place others may write`));
      // Review 51: exim's `.include` and `.include_if_exists` (exim reads its configuration as root, and `${run}` and
      // pipe transports there run commands): what it includes from outside its own tree was never judged as exim's.
      const eximInc = /^\s*\.include(?:_if_exists)?\s+(\S+)/.exec(line)?.[1];
      if (
        eximInc !== undefined &&
        /^\/etc\/exim4?\//.test(path) &&
        (!/^\/(etc|usr\/share)\/exim4?\/[^.]/.test(eximInc) || eximInc.includes(".."))
      )
        out.findings.push(finding(4, `line ${i + 1}: .include ${eximInc.slice(0, 80)}: exim configuration from outside its own tree`));
      for (const h of rules) {
        const m = h.line.exec(line);
        if (!m) continue;
        const key = (m[1] ?? "").replace(/\s+/g, " ");
        const value = unquote((m[2] ?? "").trim());
        const program = value.split(/\s+/)[0] ?? "";
        if (h.weak) {
          const why = h.weak(value, key);
          if (why) out.findings.push(finding(4, `line ${i + 1}: ${line.trim().slice(0, 80)}: ${why}`));
          continue;
        }
        if (h.load) {
          if (program.startsWith("/") && !rootsPlace(program))
            out.findings.push(finding(4, `line ${i + 1}: ${key} ${program}: loaded or read from a place others may write`));
          // A shared object outside the packaged library trees (review 49: `load_module /opt/foo/x.so`, a binary
          // committed there earlier as "a system path", runs in root's daemon unjudged).
          else if (
            program.startsWith("/") &&
            /\.(so(\.\d+)*|lua)$/.test(program) &&
            !/^\/(usr\/(?!local\/)|lib(32|64|x32)?\/)/.test(program)
          )
            out.findings.push(
              finding(4, `line ${i + 1}: ${key} ${program}: a module from outside the packaged library trees, code no one judged`),
            );
          continue;
        }
        if (h.sink) {
          if (!SINK_PLACE.test(program)) out.findings.push(finding(4, `line ${i + 1}: appends what others send to ${program}, as root`));
          continue;
        }
        if (h.served && READS_STDIN_CODE.test(posix.basename(program)))
          out.findings.push(finding(4, `line ${i + 1}: ${key} ${program}: serves an interpreter on the network, as root`));
        out.commands.push({ text: value, where: `line ${i + 1} (${key})`, runAs: "", cwd: "/" });
      }
    });
  return out;
}

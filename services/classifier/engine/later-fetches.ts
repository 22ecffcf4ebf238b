// Root's later code (a cron line, a unit, a hook, a script it runs) that
// fetches code and runs it, or hands root to others, in forms the engine
// reads as an ordinary install or edit (review 47 §3; the engine judges
// them for a command a person runs now, in a sandbox): a package from a
// URL, a VCS or an index someone chose (its build or install scripts run as
// root), a downloaded tool run at once (npx, uvx, pipx run, go run x@v), a
// root capability given to a program, an editor's or a debugger's shell
// escape, a PKCS#11 or security-key module loaded from outside the library
// trees, text spelled in escapes piped into a shell. The classifier's own patterns: the judges share no code.

/** Before a command word: the start, a separator, a quote, a path's slash. */
const AT = String.raw`(?:^|[\s;&|(\x60'"/])`;
/** The rest of the same simple command. */
const SAME = String.raw`[^\n;&|]*?`;

const FROM_ELSEWHERE = [
  // pip and its spellings: a URL, a VCS, another index, a page of links, a host whose certificate is not checked.
  String.raw`(?:pip[0-9.]*|pipx|uv\s+pip|python[0-9.]*\s+-m\s+pip)\s(?:[^\n;&|]*\s)?install\s${SAME}(?:(?:https?|ftp|file):\/\/|(?:git|hg|svn|bzr)\+|(?<=\s)(?:-i|--index-url|--extra-index-url|-f|--find-links|--trusted-host)(?=[=\s]|$))`,
  String.raw`gem\s+install\s${SAME}(?:--source\b|--clear-sources\b|(?<=\s)-s\s|(?:https?|ftp):\/\/)`,
  String.raw`cargo\s+install\s${SAME}--(?:git|index|registry)\b`,
  // CPAN clients build and install whatever the mirror serves, with no signature.
  String.raw`(?:cpan|cpanm|cpanp)(?=[\s;&|)]|$)`,
  String.raw`(?:rpm|dnf|yum|zypper|apt|apt-get|dpkg|pacman|apk|npm|pnpm|yarn|bun|composer|gem)\s${SAME}(?:https?|ftp):\/\/`,
  String.raw`(?:npm|pnpm|yarn|bun)\s${SAME}(?:git\+|git:\/\/|github:|gitlab:|bitbucket:)`,
  // A tool downloaded and run in one step.
  String.raw`(?:npx|bunx|uvx|pnpx)\s|(?:pnpm|yarn)\s+dlx\s|pipx\s+run\s|npm\s+exec\s|go\s+run\s${SAME}@`,
];
const FETCHES = new RegExp(`${AT}(?:${FROM_ELSEWHERE.join("|")})`);

/** A capability that is root in all but name (set-id, reading or writing any file, modules, ptrace …), or all of them. */
const ROOT_CAPABILITY = new RegExp(
  String.raw`${AT}setcap\s${SAME}(?:cap_(?:setuid|setgid|sys_admin|sys_module|sys_ptrace|sys_rawio|sys_chroot|dac_override|dac_read_search|chown|fowner|setfcap|setpcap|bpf)\b|\ball\b|(?:^|[\s'"])=[eip]+\b)`,
  "i",
);

/** vim's `-c '!cmd'`, `+'!cmd'`, `:call system()`, `:py3`; gdb's `-ex '!cmd'`, `shell`, `python`, `pipe`. */
const SHELL_ESCAPE = new RegExp(
  `${AT}(?:${[
    String.raw`(?:vi|vim|nvim|ex|view|vimdiff|rvim)\s${SAME}(?:-c|--cmd|\+)\s*['"]?\s*:?\s*(?:!|sil(?:ent)?!?\s*!|call\s+system|py(?:thon)?3?x?\b|lua\b|perl\b|ruby\b|term(?:inal)?\b)`,
    String.raw`gdb\s${SAME}(?:-ex|--eval-command|-iex)[=\s]*['"]?\s*(?:!|shell\b|python\b|pipe\b|\|)`,
  ].join("|")})`,
);

/** A PKCS#11 or FIDO provider ssh, ssh-add or ssh-keygen dlopens, outside the packaged library trees. */
const FOREIGN_PROVIDER = new RegExp(
  String.raw`${AT}(?:ssh-keygen\s${SAME}(?<=\s)-[Dw]|ssh-add\s${SAME}(?<=\s)-[sS]|ssh\s${SAME}(?<=\s)(?:-I|-o\s*(?:PKCS11Provider|SecurityKeyProvider)\s*=?))\s*['"]?(?!\/(?:usr\/)?lib(?:32|64|x32)?\/)[^\s'"]`,
);

/** Text spelled in escapes (`printf '\143\165…'`, `echo -e '\x63…'`) piped into a shell: code no one can read before it runs. */
const ESCAPED_INTO_SHELL = new RegExp(
  String.raw`${AT}(?:printf|echo)\s[^\n]*?\\(?:[0-7]{3}|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4})[^\n]*\|\s*(?:[^\s|'"]*\/)?(?:sh|bash|dash|ash|ksh|mksh|zsh|python[0-9.]*|perl|ruby|node|php)(?=[\s;&|)'"]|$)`,
);

/** Review 51: a container daemon serving its API on TCP with no client certificates (`dockerd -H tcp://…`): root for whoever connects. */
const OPEN_API = new RegExp(
  String.raw`${AT}(?:dockerd|docker\s+daemon|podman\s+system\s+service)\s(?!${SAME}--tlsverify\b)${SAME}(?:(?<=\s)-H|--host)(?:=|\s*)['"]?(?:tcp|http):\/\/`,
  "i",
);

/** What in root's later code fetches and runs code or gives root away, or null. */
export function laterFetch(text: string): string | null {
  const hit =
    FETCHES.exec(text) ??
    ROOT_CAPABILITY.exec(text) ??
    SHELL_ESCAPE.exec(text) ??
    FOREIGN_PROVIDER.exec(text) ??
    ESCAPED_INTO_SHELL.exec(text) ??
    OPEN_API.exec(text);
  return hit ? hit[0].trim() : null;
}

/**
 * `busybox wget … | busybox sh`: busybox runs the applet named first, so the text is judged again with each applet as
 * the program it is (the engine and the patterns above know `wget` and `sh`, not busybox's spelling of them).
 */
export function withoutBusybox(text: string): string | null {
  const out = text.replace(/(^|[\s;&|(\x60'"/])busybox\s+(?=[a-z][a-z0-9_.-]*(?:[\s;&|)'"\x60]|$))(?!busybox\b)/g, "$1");
  return out === text ? null : out;
}

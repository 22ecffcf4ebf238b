// Later root code that fetches and runs code, or hands root to others, in
// forms the command judge reads as an ordinary install or edit (review 47
// §3): a package installed from a URL, a VCS or an index of someone's
// choosing (its build or install scripts run as root), a downloaded tool
// run at once (npx, uvx, pipx run, go run x@v), a root capability given to
// a program (setcap cap_setuid …), an editor's or debugger's shell escape,
// a PKCS#11 module loaded from outside the packaged trees.

const FETCHED_CODE = new RegExp(
  [
    // pip and its spellings, from a URL, a VCS, or another index or link page
    String.raw`(?:pip[0-9.]*|pipx|uv\s+pip|python[0-9.]*\s+-m\s+pip)\s+(?:[^\n;&|]*\s)?install\s[^\n;&|]*?(?:(?:https?|ftp|file):\/\/|(?:git|hg|svn|bzr)\+|\s(?:-i|--index-url|--extra-index-url|-f|--find-links|--trusted-host)(?:[=\s]|$))`,
    String.raw`gem\s+install\s[^\n;&|]*?(?:--source|--clear-sources|\s-s\s|(?:https?|ftp):\/\/)`,
    String.raw`cargo\s+install\s[^\n;&|]*?--(?:git|index|registry)\b`,
    String.raw`(?:cpan|cpanm|cpanp)(?=[\s;&|)]|$)`,
    String.raw`(?:rpm|dnf|yum|zypper|apt|apt-get|dpkg|pacman|apk|npm|pnpm|yarn|bun|composer|gem)\s[^\n;&|]*?(?:https?|ftp):\/\/`,
    String.raw`(?:npm|pnpm|yarn)\s[^\n;&|]*?(?:git\+|git:\/\/|github:|gitlab:|bitbucket:)`,
    String.raw`(?:npx|bunx|uvx|pnpx)\s|(?:pnpm|yarn)\s+dlx\s|pipx\s+run\s|npm\s+exec\s|go\s+run\s[^\n;&|]*@`,
  ].join("|"),
);
const PRECEDED = String.raw`(?:^|[\s;&|(\x60'"/])`;
const FETCHED = new RegExp(`${PRECEDED}(?:${FETCHED_CODE.source})`);

/** A capability that is root in all but name (setuid, bypassing file permissions, loading modules …), or all of them. */
const ROOT_CAPABILITY = new RegExp(
  String.raw`${PRECEDED}setcap\s[^\n;&|]*?(?:cap_(?:setuid|setgid|sys_admin|dac_override|dac_read_search|sys_ptrace|sys_module|chown|fowner|sys_rawio|bpf|setfcap|setpcap|sys_chroot)\b|\ball\b|(?:^|[\s'"])=[eip]+\b)`,
  "i",
);

/** vim's `-c '!cmd'`/`:!`/`call system()`/`py3`, gdb's `-ex '!cmd'`/`shell`/`python`: a shell from a tool that edits. */
const SHELL_ESCAPE = new RegExp(
  String.raw`${PRECEDED}(?:(?:vim?|nvim|ex|view|vimdiff|rvim)\s[^\n;&|]*?(?:-c|--cmd|\+)\s*['"]?\s*:?\s*(?:!|sil(?:ent)?!?\s*!|call\s+system|py3?\b|pyx?\b|python3?\b|lua\b|perl\b|ruby\b|term(?:inal)?\b)|gdb\s[^\n;&|]*?(?:-ex|--eval-command)[=\s]*['"]?\s*(?:!|shell\b|python\b|pipe\b|\|))`,
);

/** A PKCS#11 provider dlopened by ssh or ssh-keygen from outside the packaged library trees. */
const FOREIGN_MODULE = new RegExp(
  String.raw`${PRECEDED}(?:ssh-keygen\s[^\n;&|]*?-D|ssh(?:-add)?\s[^\n;&|]*?(?:-I|-s|-oPKCS11Provider=|-o\s*PKCS11Provider=|-S))\s*['"]?(?!\/(?:usr\/)?lib(?:32|64|x32)?\/)(\S+)`,
);

/** Review 51: a container daemon's API on TCP without TLS client certificates (`dockerd -H tcp://0.0.0.0:2375`): whoever reaches it is root. */
const OPEN_DAEMON = new RegExp(
  String.raw`${PRECEDED}(?:dockerd|docker\s+daemon|podman\s+system\s+service)\s(?![^
;&|]*--tlsverify)[^
;&|]*?(?:-H|--host)[=\s]*['"]?(?:tcp|http):\/\/`,
);

/** What in later root code fetches and runs code, or gives root away, or undefined. */
export function laterRootHazard(text: string): string | undefined {
  const hit =
    FETCHED.exec(text) ?? ROOT_CAPABILITY.exec(text) ?? SHELL_ESCAPE.exec(text) ?? FOREIGN_MODULE.exec(text) ?? OPEN_DAEMON.exec(text);
  return hit ? hit[0].trim().slice(0, 80) : undefined;
}

// Keys of root's daemons and tools that name a program, a library or a directory of them (review 50 §5): podman's
// runtimes and mount_program, postfix's daemon_directory, lvm's executables, iscsid's startup command, root's editor,
// mailer and lftp commands, ansible's vault password program, reportbug's mta, gpg-agent's pinentry, hdparm's
// command_line. No table knew these keys, so the host read (host-target.ts) never ran and a program staged in /opt or
// /srv ran as root. A program or directory by path must be in the trees packages own (a bare name is found on
// root's PATH); inline commands are judged as root's code. Registries and signature policy say where root's images
// come from and whether they are checked.
import { posix } from "node:path";
import { unpackaged } from "./packaged.js";
import { type ContentJudge, comment, lines, type Mark, mark, shellWords, unquote } from "./runs-later-content.js";

/** program: the value is a command (its program by path must be packaged, the rest judged as code); place: every path must be packaged; code: the value is shell. */
interface Rule {
  file: RegExp;
  line: RegExp;
  kind: "program" | "place" | "code";
  /** Only in sections whose header matches (TOML's `[engine.runtimes]`). */
  section?: RegExp;
  /** Judged places a `place` value may name besides the packaged trees (the daemon's own configuration tree). */
  also?: RegExp;
}

const CONTAINERS = /^\/(?:etc|usr\/share)\/containers\/containers\.conf(?:\.d\/.+)?$/;
const CONTAINER_TREES = /^\/(?:etc|usr\/share)\/containers\//;

const RULES: Rule[] = [
  { file: CONTAINERS, section: /^engine\.runtimes$/, line: /^\s*("?[\w.-]+"?)\s*=\s*(.*)$/, kind: "place" },
  {
    file: CONTAINERS,
    line: /^\s*(conmon_path|helper_binaries_dir|init_path|network_cmd_path|cni_plugin_dirs|netavark_plugin_dirs|hooks_dir|runtime_path)\s*=\s*(.*)$/,
    kind: "place",
    also: CONTAINER_TREES,
  },
  { file: /^\/(?:etc|usr\/share)\/containers\/storage\.conf$/, line: /^\s*(mount_program)\s*=\s*(.*)$/, kind: "place" },
  { file: /^\/etc\/postfix\/main\.cf$/, line: /^\s*(daemon_directory|command_directory|shlib_directory)\s*=\s*(.*)$/, kind: "place" },
  { file: /^\/etc\/postfix\/main\.cf$/, line: /^\s*(meta_directory)\s*=\s*(.*)$/, kind: "place", also: /^\/etc\/postfix(?:\/|$)/ },
  { file: /^\/etc\/lvm\/(?:lvm\.conf|lvmlocal\.conf|profile\/.+)$/, line: /^\s*(\w*executable)\s*=\s*(.*)$/, kind: "program" },
  { file: /^\/etc\/lvm\/(?:lvm\.conf|lvmlocal\.conf|profile\/.+)$/, line: /^\s*(library_dir)\s*=\s*(.*)$/, kind: "place" },
  { file: /^\/etc\/iscsi\/iscsid\.conf$/, line: /^\s*(iscsid\.startup)\s*=\s*(.*)$/, kind: "program" },
  { file: /^\/root\/\.selected_editor$/, line: /^\s*(SELECTED_EDITOR)\s*=\s*(.*)$/, kind: "program" },
  {
    file: /^\/(?:root\/\.(?:mailrc|nailrc)|etc\/(?:mail|nail|s-nail|mailx)\.rc)$/,
    line: /^\s*set\s+(sendmail|mta|PAGER|EDITOR|VISUAL|SHELL|pipe-[\w/+.-]+)\s*=\s*(.*)$/i,
    kind: "program",
  },
  { file: /^\/(?:root\/\.lftprc|root\/\.lftp\/rc|root\/\.config\/lftp\/rc|etc\/lftp\.conf)$/, line: /^\s*(!)(.*)$/, kind: "code" },
  {
    file: /^\/(?:etc\/ansible\/ansible\.cfg|root\/\.ansible\.cfg)$/,
    line: /^\s*(vault_password_file|vault_identity_list|library|module_utils|\w+_plugins)\s*=\s*(.*)$/,
    kind: "place",
  },
  { file: /^\/(?:etc\/reportbug\.conf|root\/\.reportbugrc)$/, line: /^\s*(mta|mua|sendmail)\s+(.*)$/, kind: "program" },
  {
    file: /^\/(?:root\/\.gnupg|etc\/gnupg)\/[\w-]+\.conf$/,
    line: /^\s*([\w-]*-program|photo-viewer|exec-path|load-extension)\s+(.*)$/,
    kind: "program",
  },
];

/** Review 51: the modules Xorg (root under a display manager) loads, and the files exim (root) reads as its configuration. */
const MORE_RULES: Rule[] = [
  { file: /^\/(?:etc|usr\/share)\/X11\/xorg\.conf(?:\.d\/.+)?$/, line: /^\s*(ModulePath|Load)\s+(.*)$/i, kind: "place" },
  {
    file: /^\/etc\/exim4?\/.+$/,
    line: /^\s*(\.include(?:_if_exists)?)\s+(.*)$/,
    kind: "place",
    also: /^\/(?:etc|usr\/share)\/exim4?\/[^.]/,
  },
];
RULES.push(...MORE_RULES);

const REGISTRIES = /^\/etc\/containers\/registries\.conf(?:\.d\/.+)?$/;
const POLICY = /^\/etc\/containers\/(?:policy\.json|registries\.d\/.+)$/;
const HDPARM = /^\/etc\/hdparm\.conf$/;

/** Files read here: every one is refused when changed with its content not given (a file padded past 64 KiB). */
export function programFile(path: string): boolean {
  return RULES.some((r) => r.file.test(path)) || REGISTRIES.test(path) || POLICY.test(path) || HDPARM.test(path);
}

/** A path outside the packaged trees and `also`, or null. */
function outside(word: string, also?: RegExp): string | null {
  const bad = unpackaged(word);
  return bad && also?.test(posix.normalize(word)) && !word.includes("..") ? null : bad;
}

function ruleMarks(rule: Rule, key: string, raw: string, j: ContentJudge): Mark[] {
  const value = unquote(raw.replace(/\s+#.*$/, ""));
  if (rule.kind === "code") return [j.code(value, `${key} line`)];
  if (rule.kind === "program") {
    const bad = unpackaged(shellWords(value)[0] ?? "");
    if (bad) return [mark(4, `${key} names ${bad}, a program outside the packaged trees that root runs`)];
    return value === "" ? [] : [j.code(value, key)];
  }
  const words = [...value.matchAll(/[^\s"',[\]]+/g)].map((m) => m[0]).filter((w) => w.includes("/"));
  const bad = words.map((w) => outside(w, rule.also)).find((w) => w !== null);
  return bad ? [mark(4, `${key} names ${bad}, outside the packaged trees: code root's daemon or tool loads or runs`)] : [];
}

/** registries.conf: an insecure registry, one that answers for another's names, or a mirror — root pulls images from it. */
function registries(text: string): Mark[] {
  const out: Mark[] = [];
  if (/^\s*insecure\s*=\s*true\b/m.test(text)) out.push(mark(4, "insecure = true: images pulled without TLS checks"));
  if (/\[registries\.insecure\][^[]*registries\s*=\s*\[\s*"/.test(text))
    out.push(mark(4, "[registries.insecure]: images pulled without TLS checks"));
  if (/^\s*\[\[registry\.mirror\]\]/m.test(text)) out.push(mark(4, "a mirror: another host serves the registry's images"));
  for (const block of text.split(/^\s*\[\[registry\]\]/m).slice(1)) {
    const body = block.split(/^\s*\[/m)[0] ?? "";
    const prefix = /^\s*prefix\s*=\s*"([^"]*)"/m.exec(body)?.[1];
    const location = /^\s*location\s*=\s*"([^"]*)"/m.exec(body)?.[1];
    const host = (v: string) => v.replace(/^\*\./, "").split("/")[0];
    if (prefix !== undefined && location !== undefined && host(prefix) !== host(location))
      out.push(mark(4, `prefix ${prefix} served from ${location}: another host answers for the registry's names`));
  }
  return out;
}

/** hdparm.conf's `command_line { … }`: commands its udev and init hooks run as root. */
function hdparm(text: string, j: ContentJudge): Mark[] {
  return [...text.matchAll(/^\s*command_line\s*\{([^}]*)\}/gm)].map((m) => j.code(m[1] as string, "hdparm.conf command_line"));
}

/** The marks of a file read here (programFile), its text given. */
export function programMarks(path: string, text: string, j: ContentJudge): Mark[] {
  if (REGISTRIES.test(path)) return registries(text);
  if (POLICY.test(path))
    return /insecureAcceptAnything/.test(text) ? [mark(4, "insecureAcceptAnything: root runs images whatever their signature")] : [];
  if (HDPARM.test(path)) return hdparm(text, j);
  const rules = RULES.filter((r) => r.file.test(path));
  const out: Mark[] = [];
  let section = "";
  for (const line of lines(text)) {
    if (comment(line) || /^\s*;/.test(line)) continue;
    const header = /^\s*\[+\s*([^\]]*?)\s*\]+\s*$/.exec(line);
    if (header) {
      section = header[1] as string;
      continue;
    }
    for (const rule of rules) {
      if (rule.section && !rule.section.test(section)) continue;
      const m = rule.line.exec(line);
      if (m) out.push(...ruleMarks(rule, m[1] as string, m[2] as string, j));
    }
  }
  return out;
}

// systemd unit files, drop-ins and manager configuration, and autostart
// .desktop entries. Every Exec line is a command (judged as one, as the
// unit's User= in its WorkingDirectory=); environment they set is judged as
// such; and the few keys that decide which code a unit loads or what a
// mount unit covers are decided here. A line the concurrence cannot read
// is refused: systemd would read it somehow.
import { posix } from "node:path";
import { isLoaderName, judgeAssignment } from "./assignments.js";
import { configLines, specifiersAsDynamic } from "./config-lines.js";
import type { Later } from "./later-paths.js";
import { lex, LexError } from "./lex.js";
import { homeOf } from "./paths.js";
import { type Extracted, extracted, finding } from "./types.js";

const EXEC = new Set([
  "ExecStart",
  "ExecStartPre",
  "ExecStartPost",
  "ExecCondition",
  "ExecReload",
  "ExecStop",
  "ExecStopPost",
  "Exec",
  "TryExec",
]);
/** Exec* keys that are sandboxing, not commands. */
const NOT_COMMANDS = new Set(["ExecPaths", "NoExecPaths"]);
const ENVIRONMENT = new Set(["Environment", "DefaultEnvironment", "ManagerEnvironment"]);
/** Another file bound over a program or library, another root or image, input from a file or inline text. */
const UNIT_VIEW_KEYS =
  /^(Bind(ReadOnly)?Paths|RootDirectory|RootImage|RootImageOptions|RootHash|RootVerity|MountImages|ExtensionImages|ExtensionDirectories|TemporaryFileSystem|StandardInputText|StandardInputData)$/;
const KEY_VALUE = /^([A-Za-z][A-Za-z0-9_-]*(?:\[[^\]]*\])?)\s*=\s*(.*)$/;
/** Where a mount unit may mount without covering part of the system. */
const MOUNT_PLACES = /^\/(mnt|media|srv)(\/|$)/;
/** Environment files root alone writes. */
const SYSTEM_ENV_FILE = /^\/(etc|usr|lib)\//;

/** The words of a systemd value (quotes as in the shell, which is close enough to systemd's). */
function valueWords(value: string): string[] | undefined {
  try {
    return lex(value).commands.flatMap((c) => c.words.map((w) => w.text));
  } catch (err) {
    if (err instanceof LexError) return undefined;
    throw err;
  }
}

/** The path a mount unit's name stands for (systemd-escape --path). */
function unitPath(name: string): string {
  const body = name.replace(/\.(auto)?mount$/, "");
  if (body === "-") return "/";
  return `/${body.replace(/-/g, "/").replace(/\\x([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)))}`;
}

export function unitFileCommands(text: string, path: string, later: Later): Extracted {
  const out = extracted();
  const entries: Array<{ key: string; value: string; where: string }> = [];
  for (const line of configLines(text)) {
    if (/^\[[^\]]+\]$/.test(line.text)) continue;
    const m = KEY_VALUE.exec(line.text);
    if (!m?.[1]) {
      out.findings.push(finding(4, `line ${line.n}: not a unit setting the concurrence can read`));
      continue;
    }
    entries.push({ key: m[1], value: (m[2] ?? "").trim(), where: `${m[1]}= (line ${line.n})` });
  }
  const last = (key: string) => entries.filter((e) => e.key === key).pop()?.value;
  const user = last("User");
  const runAs = user === undefined ? later.runAs : user === "root" || user === "0" ? "" : user;
  const dir = last("WorkingDirectory")?.replace(/^-/, "");
  const cwd = dir === undefined ? later.cwd : dir === "~" ? homeOf(runAs) : dir.startsWith("/") && !dir.includes("%") ? dir : undefined;
  for (const { key, value, where } of entries) {
    if (EXEC.has(key)) {
      // Prefixes: @ (argv[0] follows), - (failure ignored), : (no substitution), + ! !! (privileges), | (through a shell).
      const command = value.replace(/^[-@:+!|]+/, "");
      if (command) out.commands.push({ text: specifiersAsDynamic(command), where, runAs, cwd });
    } else if (UNIT_VIEW_KEYS.test(key) || (key === "StandardInput" && /^(file:|data)/.test(value))) {
      out.findings.push(finding(4, `${where}: changes what the unit's programs see, load or read as input`));
    } else if (key.startsWith("Exec") && !NOT_COMMANDS.has(key)) {
      out.findings.push(finding(4, `${where}: changes where or how the unit's programs are found`));
    } else if (ENVIRONMENT.has(key)) {
      const words = valueWords(value);
      if (!words) out.findings.push(finding(4, `${where}: cannot take the assignments apart`));
      for (const w of words ?? []) {
        const eq = w.indexOf("=");
        out.findings.push(
          eq > 0 ? judgeAssignment(w.slice(0, eq), w.slice(eq + 1), where) : finding(4, `${where}: ${w} is not an assignment`),
        );
      }
    } else if (key === "PassEnvironment") {
      const loader = value.split(/\s+/).find(isLoaderName);
      if (loader) out.findings.push(finding(4, `${where}: passes ${loader}, which changes what code runs`));
    } else if (key === "EnvironmentFile") {
      const file = value.replace(/^-/, "");
      if (!SYSTEM_ENV_FILE.test(file) || file.includes("%") || file.includes(".."))
        out.findings.push(finding(4, `${where}: takes its environment from ${file}, outside what root alone writes`));
    }
  }
  if (/\.(auto)?mount$/.test(path)) {
    const where = last("Where") ?? unitPath(posix.basename(path));
    if (!MOUNT_PLACES.test(where)) out.findings.push(finding(4, `mounts over ${where}, part of the system`));
  }
  return out;
}

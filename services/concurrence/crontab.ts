// Crontab formats: which part of a line is the command, who runs it, and
// what the lines between the jobs set. Cron hands the command to /bin/sh -c;
// the first unescaped % ends it, and what follows is fed to it as input.
import { judgeAssignment, unquote } from "./assignments.js";
import { homeOf, rootsPlace } from "./paths.js";
import { type Extracted, extracted, finding, type LaterCommand } from "./types.js";

const NICKNAME = /^@(reboot|yearly|annually|monthly|weekly|daily|midnight|hourly)$/;
const TIME_FIELD = /^[0-9*,/~-]+$/;
const NAME_FIELD = /^[0-9A-Za-z*,/~-]+$/;
const ENV_LINE = /^([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/;
const USER = /^[a-z_][a-z0-9_.-]*\$?$/;
const INPUT_END = "AGENT_SUDO_CRON_INPUT";

/** Variables naming where programs read their user configuration. */
const CONFIG_HOME =
  /^(HOME|XDG_(CONFIG|DATA|CACHE|STATE|RUNTIME)_(HOME|DIR|DIRS)|XDG_CONFIG_DIRS|XDG_DATA_DIRS|GIT_CONFIG(_GLOBAL|_SYSTEM)?|GNUPGHOME|ZDOTDIR|PYTHONUSERBASE)$/;

export type CrontabFormat = "system" | "user" | "anacron";

/** Cron's %: the first unescaped one ends the command; later ones are newlines of its input. */
function splitPercent(field: string): { command: string; input?: string } {
  let command = "";
  let input: string | undefined;
  for (let i = 0; i < field.length; i++) {
    const c = field[i] as string;
    let out = c;
    if (c === "\\" && field[i + 1] === "%") {
      out = "%";
      i++;
    } else if (c === "%") {
      if (input === undefined) {
        input = "";
        continue;
      }
      out = "\n";
    }
    if (input === undefined) command += out;
    else input += out;
  }
  return input === undefined ? { command } : { command, input };
}

/** The command as the judge should see it: input after % becomes a quoted heredoc of the command. */
function job(field: string, where: string, runAs: string): LaterCommand | undefined {
  const { command, input } = splitPercent(field);
  const cwd = homeOf(runAs);
  if (input === undefined) return { text: command, where, runAs, cwd };
  if (input.split("\n").includes(INPUT_END)) return undefined;
  return { text: `${command} <<'${INPUT_END}'\n${input}\n${INPUT_END}`, where, runAs, cwd };
}

/** Leading whitespace-separated fields, and the rest of the line as it is. */
function fields(line: string, n: number): { fields: string[]; rest: string } | undefined {
  const m = new RegExp(`^${"([^ \\t]+)[ \\t]+".repeat(n)}(.*)$`).exec(line);
  return m ? { fields: m.slice(1, n + 1) as string[], rest: m[n + 1] ?? "" } : undefined;
}

function scheduleOk(schedule: string[], format: CrontabFormat): boolean {
  const [first = "", second = "", third = ""] = schedule;
  if (format === "anacron") return /^(@[a-z]+|[0-9]+)$/.test(first) && /^[0-9]+$/.test(second) && /^[^/]+$/.test(third);
  if (schedule.length === 1) return NICKNAME.test(first);
  return schedule.every((f, i) => (i < 3 ? TIME_FIELD : NAME_FIELD).test(f));
}

/** Schedule fields, then (system crontabs) the user, then the command. */
function splitJob(line: string, format: CrontabFormat): { user: string; command: string } | undefined {
  const n = format === "anacron" ? 3 : line.startsWith("@") ? 1 : 5;
  const sched = fields(line, n);
  if (!sched || !scheduleOk(sched.fields, format)) return undefined;
  let user = "";
  let command = sched.rest;
  if (format === "system") {
    const u = fields(command, 1);
    if (!u || !USER.test(u.fields[0] ?? "")) return undefined;
    user = u.fields[0] === "root" ? "" : (u.fields[0] ?? "");
    command = u.rest;
  }
  return command.trim() ? { user, command } : undefined;
}

export function crontabCommands(text: string, format: CrontabFormat, owner: string): Extracted {
  const out = extracted();
  text.split("\n").forEach((raw, i) => {
    const line = raw.trim();
    const where = `cron line ${i + 1}`;
    if (!line || line.startsWith("#")) return;
    const env = ENV_LINE.exec(line);
    if (env?.[1] !== undefined) {
      out.findings.push(judgeAssignment(env[1], unquote(env[2] ?? ""), where));
      // Where root's jobs read their user configuration (git's, a shell's, gpg's): HOME=/home/agent makes
      // `git -C /srv/repo pull` obey that user's .gitconfig as root.
      const value = unquote(env[2] ?? "");
      if (
        (format !== "user" || owner === "") &&
        CONFIG_HOME.test(env[1]) &&
        !(value === "/root" || value.startsWith("/root/") || rootsPlace(value))
      )
        out.findings.push(finding(4, `${where}: ${env[1]}=${value}: root's jobs read their configuration from a place others may write`));
      return;
    }
    const parsed = splitJob(line, format);
    if (!parsed) {
      out.findings.push(finding(4, `${where}: not a cron job the concurrence can read`));
      return;
    }
    const cmd = job(parsed.command, where, format === "user" ? owner : parsed.user);
    if (cmd) out.commands.push(cmd);
    else out.findings.push(finding(4, `${where}: its input hides the judge's own delimiter`));
  });
  return out;
}

// Environment a file sets for what it runs later (crontab lines, a unit's
// Environment=, /etc/environment): variables that decide which code is
// loaded or run are refused, and PATH may only name the system's own
// program directories.
import { type Finding, finding } from "./types.js";
import { LOADER_ENV } from "./unwrap.js";

/** Beyond the command judge's loader list: interpreters' module paths, helper programs they start. */
const MORE_LOADER =
  /^(LD_[A-Z0-9_]+|PYTHONHOME|PERLLIB|RUBYLIB|NODE_PATH|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|JDK_JAVA_OPTIONS|LESSOPEN|LESSCLOSE|SSH_ASKPASS|SUDO_ASKPASS|LOCPATH|ZDOTDIR|SYSTEMD_SULOGIN_FORCE)$/;

const SYSTEM_PATH_DIRS = new Set([
  "/usr/local/sbin",
  "/usr/local/bin",
  "/usr/sbin",
  "/usr/bin",
  "/sbin",
  "/bin",
  "/usr/games",
  "/usr/local/games",
  "/snap/bin",
]);
const SYSTEM_SHELL = /^\/(usr\/)?bin\/(sh|bash|dash)$/;

export function isLoaderName(name: string): boolean {
  return LOADER_ENV.test(`${name}=`) || MORE_LOADER.test(name);
}

/** "x" → x, 'x' → x. */
export function unquote(value: string): string {
  const v = value.trim();
  return /^"[^"]*"$|^'[^']*'$/.test(v) ? v.slice(1, -1) : v;
}

export function judgeAssignment(name: string, value: string, where: string): Finding {
  if (name === "PATH") {
    const odd = value.split(":").find((d) => !SYSTEM_PATH_DIRS.has(d));
    return odd === undefined
      ? finding(0, "")
      : finding(4, `${where}: PATH includes ${odd === "" ? "the working directory" : odd}, not only the system's program directories`);
  }
  if (name === "SHELL")
    return SYSTEM_SHELL.test(value) ? finding(0, "") : finding(4, `${where}: SHELL=${value} runs the commands with another interpreter`);
  if (isLoaderName(name)) return finding(4, `${where}: sets ${name}, which changes what code runs`);
  return finding(0, "");
}

// systemctl show: a unit's (or the manager's) properties come from PID 1
// over D-Bus, so `Environment=` is printed even when the unit file or drop-in
// that sets it (`Environment=DB_PASSWORD=…`) is readable by root alone.
import type { Analysis } from "../analyzers.js";
import type { Word } from "../types.js";

/** Options of systemctl that take a value (the subcommand is the first word that is no option and no value). */
const VALUES = new Set([
  "-t",
  "--type",
  "--state",
  "-H",
  "--host",
  "-M",
  "--machine",
  "-n",
  "--lines",
  "-o",
  "--output",
  "--root",
  "--what",
  "--signal",
  "-s",
  "--kill-whom",
  "--job-mode",
  "--timestamp",
  "--check-inhibitors",
  "--boot-loader-entry",
  "--boot-loader-menu",
  "--reboot-argument",
  "--message",
  "--drop-in",
  "--image",
  "--image-policy",
  "--when",
  "--preset-mode",
]);

/**
 * `systemctl show [UNIT…]` without `-p`/`--property`/`-P` (every property), or
 * with one that names an environment: the environment handed to the unit,
 * with its secrets, as printenv prints one (review 34). A listed property
 * (`-p MainPID,ActiveState`) prints nothing else.
 */
export function systemctlEnvironment(args: readonly Word[]): Analysis | null {
  let sub: string | null = null;
  const props: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as Word;
    const t = w.text;
    const m = /^(?:-p|-P|--property=|--value=)(.*)$/s.exec(t);
    if (t === "-p" || t === "-P" || t === "--property") props.push(args[++i]?.dynamic ? "Environment" : (args[i]?.text ?? ""));
    else if (m && !t.startsWith("--value")) props.push(w.dynamic ? "Environment" : (m[1] ?? ""));
    else if (VALUES.has(t)) i++;
    else if (sub === null && !t.startsWith("-")) sub = t;
  }
  if (sub !== "show") return null;
  const names = props.flatMap((p) => p.split(","));
  if (names.length > 0 && !names.some((p) => /environment|^\s*$/i.test(p))) return null;
  return {
    tier: 2,
    rule: "analysis:unit-environment",
    reason: "systemctl show prints the environment a unit (or the manager) is given, with its secrets, as printenv does",
    kind: "floor",
  };
}

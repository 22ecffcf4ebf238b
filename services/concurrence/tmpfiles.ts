// systemd-tmpfiles configuration: each line creates, writes, links, removes
// or re-permissions a path at every boot, as root. A line is judged as that
// effect on that path (effect-path.ts); a path whose content runs later,
// set-id or world-writable modes, ownership of root's trees, device nodes,
// ACLs, attributes and capabilities, and lines it cannot read are refused.
import { configLines } from "./config-lines.js";
import { sysctlFindings } from "./config-formats.js";
import { judgePathEffect, type PathEffect } from "./effect-path.js";
import { laterKind } from "./later-paths.js";
import { isRootOnlyTree } from "./paths.js";
import { type Extracted, extracted, finding, type Finding, type JudgeContext, worst } from "./types.js";

const LINE = /^(\S+)\s+(\S+)(?:\s+(\S+))?(?:\s+(\S+))?/;
const TYPES = /^[fFwdDevqQpLcbCxXrRzZtThHaA]$/;

function effectOf(letter: string): PathEffect | "ignore" {
  if (letter === "x" || letter === "X") return "ignore";
  if (letter === "r") return "delete";
  if (letter === "R" || letter === "D" || letter === "e") return "delete-tree";
  return "write";
}

function judgeLine(text: string, ctx: JudgeContext): Finding {
  const [, type = "", path = "", mode = "-", user = "-"] = LINE.exec(text) ?? [];
  const letter = type.replace(/[!+\-=~^$?]/g, "");
  if (!TYPES.test(letter) || !path.startsWith("/")) return finding(4, "not a tmpfiles line the concurrence can read");
  if (/[%*?[]/.test(path)) return finding(4, `acts on ${path}, a path only known at boot`);
  if ("cb".includes(letter)) return finding(4, `creates device node ${path}`);
  if ("aAtThH".includes(letter)) return finding(4, `sets ACLs, attributes or capabilities on ${path}`);
  const effect = effectOf(letter);
  if (effect === "ignore") return finding(0, "");
  let f = worst(judgePathEffect(path, effect, ctx), finding(3, `${type} ${path} at every boot`));
  if (effect === "write" && laterKind(path)) f = worst(f, finding(4, `writes ${path}, whose content runs later, at every boot`));
  // `w /proc/sys/kernel/core_pattern - - - - |/tmp/x` sets a kernel parameter at every boot, as sysctl.d does.
  if (effect === "write" && path.startsWith("/proc/sys/")) {
    const argument = text.trim().split(/\s+/).slice(6).join(" ");
    f = sysctlFindings(`${path.slice("/proc/sys/".length)} = ${argument}`).findings.reduce(worst, f);
  }
  const bits = /^~?[0-7]{3,4}$/.test(mode) ? parseInt(mode.replace("~", ""), 8) : 0;
  if (bits & 0o6000) f = worst(f, finding(4, `gives ${path} set-id mode ${mode}`));
  if (bits & 0o002 && !(bits & 0o1000)) f = worst(f, finding(4, `makes ${path} writable by anyone (${mode})`));
  if (!["-", "root", "0", ""].includes(user) && isRootOnlyTree(path)) f = worst(f, finding(4, `hands ${path} to ${user}`));
  return f;
}

export function tmpfilesFindings(text: string, ctx: JudgeContext): Extracted {
  return extracted(
    [],
    configLines(text, /^#/).map((line) => {
      const f = judgeLine(line.text, ctx);
      return { tier: f.tier, reason: `line ${line.n}: ${f.reason}` };
    }),
  );
}

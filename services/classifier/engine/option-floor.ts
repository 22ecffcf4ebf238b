// The option check of a tier 0–1 verdict: a rule (or analysis, or guess)
// that leaves a command's words open decides it only when every option in
// it is on its tool's table; an unknown option raises it to 2. Files that
// known options name are judged like operands: a secret read → 2, a write
// by its place.
import type { TierNumber } from "../../shared/tier.js";
import { judgeTarget } from "./effects.js";
import { checkOptions } from "./options/check.js";
import type { Expand } from "./options/check.js";
import { TOOLS } from "./options/index.js";
import { resolvePlace, secretPlace } from "./paths.js";
import { workspaceScript } from "./script-place.js";
import { cookieJars } from "./tools/http.js";
import type { Context, Word } from "./types.js";

export interface OptionFloor {
  tier: TierNumber;
  rule: string;
  reason: string;
}

/** The floor a command's options put under a tier 0–1 verdict (null: none). */
export function optionFloor(name: string, args: readonly Word[], ctx: Context, expand: Expand): OptionFloor | null {
  const v = checkOptions(TOOLS, name, args, expand);
  if (v.unknown) return { tier: 2, rule: "unknown-option", reason: v.unknown.why };
  let worst: OptionFloor | null = null;
  for (const w of v.reads) {
    if (secretPlace(resolvePlace(w, ctx)))
      return { tier: 2, rule: "option-reads-secret", reason: `an option of ${name} reads a secret: ${w.text}` };
  }
  // A cookie jar is a store of credentials: one from outside the workspace sends the sessions it holds.
  if (ctx.policy === "claude" && !ctx.remote) {
    const jar = cookieJars(name, args).find((w) => w.text !== "-" && !workspaceScript(resolvePlace(w, ctx), ctx));
    if (jar)
      return {
        tier: 2,
        rule: "option-reads-secret",
        reason: `${name} sends the cookies stored in ${jar.text}, a file outside the workspace (a store of credentials)`,
      };
  }
  // A written value may carry a kind before the path (`--cov-report=html:/etc/x`): the path after it is what is written.
  const written = v.writes.map((w) => {
    const m = /^[A-Za-z][A-Za-z0-9_-]*:(?!\/\/)(.+)$/.exec(w.text);
    return m ? { ...w, text: m[1] as string } : w;
  });
  for (const w of written) {
    const e = judgeTarget({ word: w, mode: "write" }, ctx);
    if (e.tier > (worst?.tier ?? 0)) worst = { tier: e.tier, rule: "option-writes", reason: `an option of ${name} writes: ${e.reason}` };
  }
  return worst;
}

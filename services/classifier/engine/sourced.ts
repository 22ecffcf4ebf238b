// `source FILE` / `. FILE`: the file's text runs in this shell, so it is
// read here and judged as that code (interpreters.ts marks the part).
import { find, worse } from "./judge.js";
import type { Judge } from "./judge.js";
import { readScript } from "./host-paths.js";
import { downloadedPath } from "./downloaded.js";
import { composedFile } from "./composed.js";
import { inWorkspace, resolvePlace } from "./paths.js";
import type { Context, Finding, Word } from "./types.js";

/** Findings about variables a script sets for the commands after it, not about what it runs. */
const ENV_RULES = new Set(["shell-vars-risky", "risky-variable"]);

/**
 * `source FILE` / `. FILE` runs FILE's text in this shell: it is read here
 * and judged as that code. Workspace code run this way is tier 1, like a
 * workspace script, unless what it does is worse than tier 2; a file that
 * cannot be read here (missing, unreadable, too large, computed) is tier 2.
 */
export function judgeSourced(file: Word, ctx: Context, j: Judge, text: string): Finding {
  const p = resolvePlace(file, ctx);
  const later = ctx.laterScript?.(p.glob ? null : p.path) ?? null;
  if (later) return { ...later, text };
  if (p.path === null || p.glob || ctx.remote)
    return find(2, "sourced-code", `sources ${file.text}, a file not known until run time`, text);
  // What is there now is not what runs: the same line downloads it first (`curl -o env.sh URL && . env.sh`).
  if (downloadedPath(p.path, ctx))
    return find(2, "sourced-code", `sources ${file.text}, which the same command line downloads: code no one has seen`, text);
  // `echo 'rm -rf ~' > env.sh && . ./env.sh`: the text the line writes runs, not what is there now (review 40).
  // Outside the workspace (`/tmp/x.sh`) another user may have put the file there first: it is read as before.
  const composed = inWorkspace(p.path, ctx) ? composedFile(p.path, ctx) : undefined;
  if (composed === null)
    return find(2, "sourced-code", `sources ${file.text}, which the same command line writes from text computed at run time`, text);
  const code = composed ?? readScript(p.path);
  if (code === null) return find(2, "sourced-code", `sources ${file.text}, which cannot be read here: the code it runs is not known`, text);
  const parts = j.judgeCodeParts(code, { ...ctx, depth: ctx.depth + 1 });
  const f = parts.reduce((a, b) => worse(a, b), find(0, "sourced-code", `sources ${file.text}`, text));
  // A workspace file whose only concern is the environment it sets (a virtualenv's PATH) is workspace code, tier 1.
  const envOnly = parts.every((x) => x.tier <= 1 || (x.tier === 2 && ENV_RULES.has(x.rule)));
  if (envOnly && inWorkspace(p.path, ctx))
    return find(f.tier === 0 ? 0 : 1, "sourced-code", `sources ${file.text} from the workspace; its code is judged (${f.rule})`, text);
  return { ...f, reason: `sourced from ${file.text}: ${f.reason}` };
}

// TeX engines given code on the command line: `pdflatex '\input{/etc/x}'`,
// `pdflatex '\immediate\write18{…}\end'`, `lualatex '\directlua{…}'`. The
// words are TeX that reads and writes files and (shell escape, Lua) runs
// programs: code no one has seen, never "typesets a workspace file".
import type { Analysis } from "../analyzers.js";
import type { Word } from "../types.js";

export const TEX_ENGINES = new Set([
  "tex",
  "etex",
  "pdftex",
  "xetex",
  "luatex",
  "luahbtex",
  "latex",
  "pdflatex",
  "xelatex",
  "lualatex",
  "pdflatex-dev",
  "lualatex-dev",
  "xelatex-dev",
  "amstex",
  "context",
]);

/** A first operand that is TeX code (a control sequence) or a format loaded from a path (`&/x/evil`): floor 2. */
export function texAnalysis(name: string, args: readonly Word[]): Analysis | null {
  const code = args.find((w) => /^\s*\\/.test(w.text) || /^&.*\//.test(w.text));
  if (code === undefined) return null;
  return {
    tier: 2,
    rule: "analysis:tex-code",
    reason: `${name} runs TeX given on the command line (\\input, \\openout, \\write18, \\directlua reach files and programs): ${code.text.slice(0, 60)}`,
    kind: "floor",
  };
}

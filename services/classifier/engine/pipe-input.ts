// What one pipeline stage hands the next on its standard input, when the
// judge can know it: the literal text echo/printf (or cat of a heredoc)
// writes, or NUL-separated paths from `find … -print0`. Everything else is
// an unknown pipe.
import { composedText } from "./composed.js";
import { findFollowsLinks, findStarts } from "./tools/find.js";
import type { SimpleCommand, StdinSource, Word } from "./types.js";

export function unknownPipe(): StdinSource {
  return { kind: "pipe", text: null, dynamic: true };
}

const EMITTERS = new Set(["echo", "printf"]);

/** What a stage writes to the pipe, when it is literal text (echo/printf args, cat of a heredoc). */
/** `sudo -u x echo …`, `env A=b printf …`, `nice echo …`: the words from the program a pass-through wrapper runs. */
function throughWrappers(words: readonly Word[]): readonly Word[] {
  let w = words;
  while (PASS_THROUGH.has(w[0]?.text ?? "")) {
    w = w.slice(1);
    while (w[0] && (w[0].text.startsWith("-") || /^[A-Za-z_][A-Za-z0-9_]*=/.test(w[0].text) || /^\d+(\.\d+)?[smhd]?$/.test(w[0].text)))
      w = w.slice(1);
  }
  return w;
}
const PASS_THROUGH = new Set(["sudo", "doas", "run0", "env", "nice", "nohup", "stdbuf", "timeout", "command", "exec", "builtin"]);

/** find's literal roots (checked literal by findPrintsNulPaths), `.` when it names none. */
function findRoots(args: readonly Word[]): string[] {
  const roots = findStarts(args).map((w) => w.text);
  return roots.length > 0 ? roots : ["."];
}

/**
 * `find ROOTS … -print0` with literal roots that are not dashes and no other
 * output action: NUL-separated paths under those roots — unless it follows
 * links (`-L`, `-follow`): then they are paths under whatever a link points at.
 */
function findPrintsNulPaths(args: readonly Word[]): boolean {
  if (findFollowsLinks(args)) return false;
  if (findStarts(args).some((w) => w.dynamic || !/^[^-*?[{]/.test(w.text))) return false;
  if (!args.some((w) => w.text === "-print0")) return false;
  return !args.some((w) => w.dynamic || /^-(print|printf|fprint|fprint0|fprintf|ls|fls|exec|execdir|ok|okdir)$/.test(w.text));
}

export function outputOf(cmd: SimpleCommand, input: StdinSource | null): StdinSource {
  const words = throughWrappers(cmd.words);
  const name = words[0]?.text ?? "";
  if (EMITTERS.has(name)) {
    const args = words.slice(1).filter((w, i) => !(i === 0 && /^-[neE]+$/.test(w.text)));
    const origins = args.flatMap((w) => w.origins ?? []);
    // As written and as printf or `echo -e` decode it (`printf '…\n+++ b/.git/config\n' | patch`): every reading.
    const raw = args.map((w) => w.text).join(" ");
    const decoded = composedText({ ...cmd, words: [...words] });
    return {
      kind: "pipe",
      text: typeof decoded === "string" && decoded !== raw ? `${raw}\n${decoded}` : raw,
      // A text too long to follow here is not known either.
      dynamic: args.some((w) => w.dynamic) || decoded === null,
      ...(origins.length > 0 ? { origins } : {}),
    };
  }
  if (name === "find" && findPrintsNulPaths(words.slice(1)))
    return { kind: "pipe", text: null, dynamic: true, nulPaths: true, roots: findRoots(words.slice(1)) };
  if (name === "cat" && words.length === 1 && input && input.kind !== "pipe") {
    return { kind: "pipe", text: input.text, dynamic: input.dynamic, ...(input.origins ? { origins: input.origins } : {}) };
  }
  return unknownPipe();
}

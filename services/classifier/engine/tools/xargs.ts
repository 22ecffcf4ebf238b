// Commands that run a command line per input item or again and again:
// xargs (items from stdin), GNU parallel (items after :::), watch.
import type { StdinSource, Word } from "../types.js";
import { dynamicWord, firstOperand, joinWords, literalWord, unwrap } from "../unwrap.js";
import type { Delegate, Unwrap } from "../unwrap.js";
import { shQuote } from "./runs.js";

const XARGS_VALUES = new Set([
  "-n",
  "-I",
  "-P",
  "-L",
  "-d",
  "-a",
  "-E",
  "-s",
  "-e",
  "--max-args",
  "--max-procs",
  "--delimiter",
  "--arg-file",
  "--max-lines",
  "--eof",
  "--max-chars",
]);

/** xargs's replacement string: `-I R`, `-IR`, `-i[R]`, `--replace[=R]` (R defaults to `{}`). */
function xargsReplace(opts: Word[]): string | undefined {
  let repl: string | undefined;
  for (let i = 0; i < opts.length; i++) {
    const t = (opts[i] as Word).text;
    // Flags without values may be bundled before it: `-0I{}`, `-rtI {}`.
    const short = /^-[0prtx]*([Ii])(.*)$/s.exec(t);
    if (short?.[1] === "I") repl = short[2] || opts[++i]?.text;
    else if (short) repl = short[2] || "{}";
    else if (t === "--replace") repl = "{}";
    else if (t.startsWith("--replace=")) repl = t.slice("--replace=".length) || "{}";
    else if (XARGS_VALUES.has(t)) i++;
  }
  return repl === "" ? undefined : repl;
}

function xargs(args: Word[], stdin: StdinSource | null): Unwrap {
  const at = firstOperand(args, XARGS_VALUES);
  const repl = xargsReplace(args.slice(0, at));
  let cmd = args.slice(at);
  if (cmd.length === 0) cmd = [literalWord("echo")];
  // `find ROOT … -print0 | xargs -0 CMD`: each item is one path under ROOT, never an option.
  const nul = args.slice(0, at).some((w) => w.text === "--null" || /^-[a-zA-Z]*0/.test(w.text));
  // …and it lies under find's roots, which a reader of it reads as trees (secret-trees.ts).
  const roots = nul && stdin?.nulPaths === true && stdin.roots ? { underRoots: stdin.roots } : {};
  const input = { ...dynamicWord("$XARGS_INPUT"), noDash: nul && stdin?.nulPaths === true, stdinItem: true, ...roots };
  const inner = repl
    ? cmd.map((w) =>
        w.text === repl
          ? { ...w, text: "$XARGS_INPUT", dynamic: true, noDash: input.noDash && !w.text.startsWith("-"), stdinItem: true, ...roots }
          : w.text.includes(repl)
            ? {
                ...w,
                text: w.text.replaceAll(repl, "$XARGS_INPUT"),
                dynamic: true,
                noDash: input.noDash && !w.text.startsWith("-"),
                stdinItem: true,
              }
            : w,
      )
    : [...cmd, input];
  return unwrap("delegate:xargs", 0, "xargs runs a command on its input", { inner: [inner] });
}

/** At most this many `:::` arguments are substituted one by one; the rest stand as one unknown argument. */
const PARALLEL_ARGS = 16;

// GNU parallel's options whose effect is known: flags, and options whose
// value is data (job counts, separators, replacement strings). Any other
// option may write a file (--joblog, --results, --sqlmaster, --tmpdir),
// run commands elsewhere (-S, --ssh, --transfer, --return, --wd) or carry
// perl code (--rpl, --filter, --tagstring '{= … =}').
const PARALLEL_FLAGS = new Set(
  "-k --keep-order --bar --eta --progress --dry-run --dryrun -v --verbose -t --tag --line-buffer --lb --group -u --ungroup -0 --null -q --quote -X -m --xargs --no-notice --will-cite --plus --csv -r --no-run-if-empty --shuf --silent --halt-on-error --files0 --fg --keep --group-by".split(
    " ",
  ),
);
const PARALLEL_VALUES = new Set(
  "-j --jobs -P --max-procs --delay --timeout -d --delimiter --colsep -C -I --header -n --max-args -N -L --max-lines --halt --retries -s --max-chars --arg-sep --arg-file-sep -E --eof --block --block-size -a --arg-file --tagstring --seqreplace --extensionreplace --basenamereplace --dirnamereplace --basenameextensionreplace --replace".split(
    " ",
  ),
);

/** The first parallel option whose effect is not known, or a value holding perl code (`{= … =}`). */
function parallelUnknown(opts: Word[]): string | undefined {
  for (let i = 0; i < opts.length; i++) {
    const w = opts[i] as Word;
    const t = w.text;
    if (t === "--") break;
    const eq = t.startsWith("--") ? t.indexOf("=") : -1;
    const name = eq > 0 ? t.slice(0, eq) : t;
    if (PARALLEL_FLAGS.has(t)) continue;
    if (PARALLEL_VALUES.has(name)) {
      const value = eq > 0 ? t.slice(eq + 1) : opts[++i]?.text;
      if (value === undefined || value.includes("{=")) return t;
      continue;
    }
    // Glued short values: -j4, -n1, -d: , -I{} and the like.
    if (/^-[jPnNLsdCIE]./.test(t) && !t.includes("{=")) continue;
    return t;
  }
  return undefined;
}

/** Options not known to be safe that take a value: skipped to find the command (judged by parallelUnknown). */
const PARALLEL_OTHER_VALUES =
  "-S --sshlogin --slf --sshloginfile --joblog --results --res --tmpdir --wd --workdir --ssh --sqlmaster --sqlworker --sqlandworker --return --basefile --bf --transferfile --tf --env --profile -J --rpl --filter --termseq --tmux --sshdelay --controlmaster --sem-id --id".split(
    " ",
  );
const PARALLEL_SKIP = new Set([...PARALLEL_VALUES, ...PARALLEL_OTHER_VALUES]);

function parallel(args: Word[]): Unwrap {
  const at = firstOperand(args, PARALLEL_SKIP);
  const unknownOpt = parallelUnknown(args.slice(0, at));
  const end = args.findIndex((w, i) => i >= at && /^::::?\+?$/.test(w.text));
  const cmd = args.slice(at, end < 0 ? undefined : end);
  // Arguments after `:::` are substituted for `{}`, or appended when the
  // command has none; arguments from `::::` files or stdin are unknown.
  const given: Word[] = [];
  let unknown = end < 0;
  let literal = false;
  for (const w of end < 0 ? [] : args.slice(end)) {
    if (/^::::\+?$/.test(w.text)) {
      literal = false;
      unknown = true;
    } else if (/^:::\+?$/.test(w.text)) literal = true;
    else if (literal) given.push(w);
  }
  // A glob's matches are not known here either (`::: *`: every file name, not a file named `*`).
  if (given.length > PARALLEL_ARGS || given.some((w) => w.dynamic || w.glob)) unknown = true;
  const known = given.filter((w) => !w.dynamic && !w.glob).slice(0, PARALLEL_ARGS);
  if (cmd.length === 0) {
    // `parallel ::: 'cmd1' 'cmd2'`: each argument is a command.
    return unwrap("delegate:parallel", unknown || unknownOpt !== undefined ? 2 : 0, "parallel runs each input as a command", {
      code: known.map((w) => w.text),
      opaque: given.filter((w) => w.dynamic).map((w) => w.text),
    });
  }
  const text = joinWords(cmd).text;
  // parallel hands its command words to a shell as one line: a value or a glob's file names in them are code
  // (`parallel echo "$x" ::: a`); its replacement strings (`{}`, `{.}`) are no glob.
  if (cmd.some((w) => w.dynamic || (w.glob && /[*?[]/.test(w.text.replace(/\{[^}\s]*\}/g, "")))))
    return unwrap("delegate:parallel", 2, "parallel runs its command words through a shell, and some are only known at run time", {
      opaque: [text],
    });
  // `{= perl =}` in the command is perl code parallel evaluates per input.
  if (unknownOpt !== undefined || text.includes("{="))
    return unwrap(
      "delegate:parallel",
      2,
      unknownOpt !== undefined
        ? `parallel option ${unknownOpt} may write a file, run commands on another host or evaluate perl code`
        : "parallel evaluates the perl code in a {= … =} replacement string",
      { code: [text] },
    );
  const inputs = [...known.map((w) => shQuote(w.text)), ...(unknown ? ['"$PARALLEL_ARG"'] : [])];
  const code = inputs.map((arg) => (/\{[^}\s]*\}/.test(text) ? text.replace(/\{[^}\s]*\}/g, arg) : `${text} ${arg}`));
  return unwrap("delegate:parallel", 0, "parallel runs a command per input", { code });
}

function watch(args: Word[]): Unwrap {
  const at = firstOperand(args, new Set(["-n", "--interval", "-q", "--equexit"]));
  const rest = args.slice(at);
  if (args.slice(0, at).some((w) => w.text === "-x" || w.text === "--exec"))
    return unwrap("delegate:watch", 0, "watch re-runs a command", { inner: [rest] });
  // Without -x watch hands its words to `sh -c` as one line: a value or a glob's file names in them are code (round 30).
  const { text, dynamic } = joinWords(rest);
  if (dynamic)
    return unwrap("delegate:watch", 2, "watch runs its words through a shell, and some are only known at run time", { opaque: [text] });
  return unwrap("delegate:watch", 0, "watch re-runs a command", { code: [text] });
}

export const xargsDelegate: Delegate = (_name, args, stdin) => xargs(args, stdin);

export const parallelDelegate: Delegate = (_name, args) => parallel(args);

export const watchDelegate: Delegate = (_name, args) => watch(args);

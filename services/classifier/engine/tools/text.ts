// Text tools with an option that runs a program: rg --pre, sort
// --compress-program, split --filter; and the files sort and split write.
import { splitArgs } from "../argv.js";
import { asTargets, optionValueSpec } from "../targets.js";
import type { Spec } from "../targets.js";
import type { Word } from "../types.js";
import { dynamicWord, literalWord, unwrap } from "../unwrap.js";
import type { Delegate, Unwrap } from "../unwrap.js";
import { pullOptions, Runs } from "./runs.js";

/** `rg --pre CMD`: ripgrep runs CMD on every file it searches (the path appended). */
function rg(args: Word[]): Unwrap | null {
  const { values, rest } = pullOptions(args, { longs: ["--pre"], not: ["--pre-glob"] });
  if (values.length === 0) return null;
  const runs = new Runs();
  for (const v of values) {
    if (v.text === "") continue;
    runs.inner.push([v, dynamicWord("$FILE")]);
    runs.raise(2, "ripgrep runs a preprocessor command on every file");
  }
  return runs.result("delegate:rg", [[literalWord("rg"), ...rest]]);
}

/** `sort --compress-program=PROG`: sort runs PROG (and `PROG -d`) to compress its temporary files. */
function sortCompress(args: Word[]): Unwrap | null {
  const { values, rest } = pullOptions(args, { longs: ["--compress-program"] });
  if (values.length === 0) return null;
  const runs = new Runs();
  for (const v of values) {
    if (v.text === "") continue;
    runs.inner.push([v], [v, literalWord("-d")]);
    runs.raise(2, "sort runs a compression program on its temporary files");
  }
  return runs.result("delegate:sort", [[literalWord("sort"), ...rest]]);
}

/** `split --filter=CMD`: each piece is written through CMD (a shell command, $FILE set). */
function split(args: Word[]): Unwrap | null {
  const { values, rest } = pullOptions(args, { longs: ["--filter"] });
  if (values.length === 0) return null;
  const runs = new Runs();
  for (const v of values) runs.add(v, 2, "split pipes each piece through a shell command");
  return runs.result("delegate:split", [[literalWord("split"), ...rest]]);
}

export const rgDelegate: Delegate = (_name, args) => rg(args);

export const sortDelegate: Delegate = (_name, args) => sortCompress(args);

export const splitDelegate: Delegate = (_name, args) => split(args);

export const sortTargets: Spec = optionValueSpec(["-o", "--output"], false);

// split writes PREFIXaa, PREFIXab … next to the prefix (the operand after the input).
export const splitTargets: Spec = (a) =>
  asTargets(splitArgs(a, new Set(["-b", "-l", "-n", "-C", "-a", "--additional-suffix", "--filter", "-t"])).positional.slice(1, 2), "write");

// pandoc's readers that include files the document names (rst `.. include::`, org `#+INCLUDE:`,
// LaTeX \input/\include, typst #include, DocBook XInclude), and --embed-resources/--self-contained,
// which embed every file the document names: `echo '.. include:: ~/.ssh/id_rsa' | pandoc -f rst -t plain`
// prints the key (review 26). `--sandbox` keeps pandoc from reading any file but its inputs.
const PANDOC_INCLUDING = /^(?:rst|org|latex|tex|typst|docbook|docbook4|docbook5|jats|bits|muse|asciidoc|opml)(?:[+-].*)?$/;
const PANDOC_INCLUDING_FILE = /\.(?:rst|rest|org|tex|latex|ltx|typ|dbk|muse|adoc|asciidoc)$/i;

const PANDOC_VALUES =
  /^-[otwVMdAHB]$|^--(?:to|write|output|template|css|metadata|variable|resource-path|bibliography|csl|reference-doc|columns|wrap|toc-depth|highlight-style|eol|tab-stop|shift-heading-level-by|markdown-headings)$/;

function pandoc(args: Word[]): Unwrap | null {
  // pandoc 3's `lua` runs a script in a full Lua interpreter (os.execute), `server` listens for documents (round 28).
  const verb = args.find((w) => !w.text.startsWith("-"));
  if (verb === args[0] && (verb?.text === "lua" || verb?.text === "server"))
    return unwrap(
      "delegate:pandoc",
      2,
      `pandoc ${verb.text} runs ${verb.text === "lua" ? "a Lua script with os.execute" : "an HTTP server"}`,
    );
  // A PDF goes through a TeX engine, which reads any file raw TeX names (`\input{~/.ssh/id_rsa}`) whatever --sandbox
  // says: with the document on standard input it is not seen here.
  const pdf =
    args.some((w, i) => /\.pdf$/.test(w.text) && /^(-o|--output)$/.test(args[i - 1]?.text ?? "")) ||
    args.some((w) => /^(--output=.*\.pdf|-o.+\.pdf|--pdf-engine(=.*)?|-t=?pdf|--to=pdf)$/.test(w.text)) ||
    args.some((w, i) => w.text === "pdf" && /^(-t|--to)$/.test(args[i - 1]?.text ?? ""));
  const isValue = (i: number) =>
    PANDOC_VALUES.test(args[i - 1]?.text ?? "") || /^(-o|--output|-f|-r|--from|--read|-t|--to)$/.test(args[i - 1]?.text ?? "");
  if (pdf && !args.some((w, i) => !w.text.startsWith("-") && !isValue(i)))
    return unwrap("delegate:pandoc", 2, "pandoc makes a PDF through TeX from standard input: raw TeX in it reads any file into the PDF");
  if (args.some((w) => w.text === "--sandbox" || w.text === "--sandbox=true")) return null;
  const readers: Word[] = [];
  const operands: Word[] = [];
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as Word;
    const t = w.text;
    const long = /^--(?:from|read)=(.*)$/s.exec(t);
    const glued = /^-[fr](.+)$/s.exec(t);
    if (long) readers.push({ ...w, text: long[1] as string });
    else if (glued) readers.push({ ...w, text: glued[1] as string });
    else if (t === "-f" || t === "-r" || t === "--from" || t === "--read") {
      const v = args[++i];
      if (v) readers.push(v);
    } else if (PANDOC_VALUES.test(t)) i++;
    else if (!t.startsWith("-") || t === "-") operands.push(w);
  }
  const embeds = args.some((w) => /^--(?:embed-resources|self-contained)(?:=true)?$/.test(w.text));
  const including =
    readers.some((w) => w.dynamic || PANDOC_INCLUDING.test(w.text)) ||
    (readers.length === 0 && operands.some((w) => w.dynamic || PANDOC_INCLUDING_FILE.test(w.text)));
  if (!embeds && !including) return null;
  return unwrap(
    "delegate:pandoc",
    2,
    embeds
      ? "pandoc --embed-resources reads every file the document names (a key, a credential) into its output; --sandbox keeps it to its inputs"
      : "pandoc's reader includes files the document names (rst include, org #+INCLUDE, LaTeX \\input); --sandbox keeps it to its inputs",
  );
}

export const pandocDelegate: Delegate = (_name, args) => pandoc(args);

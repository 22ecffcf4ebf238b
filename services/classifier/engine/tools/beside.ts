// Compilers and converters that write their output beside their input:
// `tsc /root/x.ts` writes /root/x.js, `javac /root/X.java` /root/X.class,
// `asciidoctor /root/x.adoc` /root/x.html, `jupyter nbconvert /root/x.ipynb`
// /root/x.html — unless an option sends the output elsewhere (judged by the
// option tables, which know those options as writes) or nowhere. The file
// beside each input is judged as written. `lessc IN OUT` writes its second
// operand.
import { splitArgs } from "../argv.js";
import { asTargets } from "../targets.js";
import type { Spec } from "../targets.js";
import type { Word } from "../types.js";

/** The file written beside an input: its name with `ext` for its extension (`src/x.ts` → `src/x.js`). */
function beside(w: Word, ext: string): Word {
  const slash = w.text.lastIndexOf("/");
  const dot = w.text.lastIndexOf(".");
  return { ...w, text: `${dot > slash + 1 ? w.text.slice(0, dot) : w.text}${ext}` };
}

/** A program that writes `input.EXT` beside each input operand unless one of `elsewhere` is given. */
function besideInputs(values: readonly string[], elsewhere: RegExp, ext: (args: readonly Word[]) => string, skip = 0): Spec {
  const valueOpts = new Set(values);
  return (args) => {
    const rest = args.slice(skip);
    if (rest.some((w) => !w.dynamic && elsewhere.test(w.text))) return [];
    const e = ext(rest);
    return asTargets(
      splitArgs(rest, valueOpts).positional.map((w) => beside(w, e)),
      "write",
    );
  };
}

/** nbconvert's output extension for `--to FORMAT` (another format: judged by the directory alone). */
const NB_EXT: Readonly<Record<string, string>> = {
  html: ".html",
  pdf: ".pdf",
  webpdf: ".pdf",
  markdown: ".md",
  script: ".py",
  python: ".py",
  latex: ".tex",
  rst: ".rst",
  asciidoc: ".asciidoc",
  notebook: ".nbconvert.ipynb",
  slides: ".slides.html",
};

const toValue = (args: readonly Word[]): string | undefined => {
  const i = args.findIndex((w) => w.text === "--to" || w.text.startsWith("--to="));
  if (i < 0) return undefined;
  const w = args[i] as Word;
  return w.text.startsWith("--to=") ? w.text.slice(5) : args[i + 1]?.text;
};

export const BESIDE: Record<string, Spec> = {
  // tsc emits beside each source unless told not to emit or where (a project's tsconfig names its own outDir).
  tsc: besideInputs(
    ["--target", "-t", "--module", "-m", "--lib", "--jsx", "--moduleResolution", "--types", "--typeRoots", "--rootDir", "--baseUrl"],
    /^--?(noEmit|outDir|outFile|out|p|project|b|build|declarationDir)(=|$)/,
    () => ".js",
  ),
  javac: besideInputs(
    [
      "-cp",
      "-classpath",
      "--class-path",
      "-sourcepath",
      "--source-path",
      "-encoding",
      "-source",
      "--source",
      "-target",
      "--target",
      "--release",
      "-processor",
      "-processorpath",
      "--module-path",
      "-p",
    ],
    /^(-d|-s|-h)$/,
    () => ".class",
  ),
  asciidoctor: besideInputs(
    [
      "-b",
      "--backend",
      "-a",
      "--attribute",
      "-r",
      "--require",
      "-T",
      "--template-dir",
      "-E",
      "--template-engine",
      "-d",
      "--doctype",
      "-S",
      "--safe-mode",
      "-B",
      "--base-dir",
    ],
    /^(-o|--out-file|-D|--destination-dir)(=|$)/,
    () => ".html",
  ),
  jupyter: (args) =>
    args[0]?.text === "nbconvert"
      ? besideInputs(
          ["--to", "--template", "--output", "--config", "--ExecutePreprocessor.timeout"],
          /^--(output-dir|stdout)(=|$)/,
          // --inplace rewrites the notebook itself.
          (a) => (a.some((w) => w.text === "--inplace") ? ".ipynb" : (NB_EXT[toValue(a) ?? "html"] ?? ".out")),
          1,
        )(args)
      : [],
  lessc: (args) =>
    asTargets(splitArgs(args, new Set(["--include-path", "--rootpath", "--source-map-rootpath"])).positional.slice(1, 2), "write"),
};

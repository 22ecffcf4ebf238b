// Formatters and fixers rewrite the files they are given, in place: black,
// isort, ruff format, rustfmt always (unless only checking); prettier
// --write, eslint --fix, biome --write, clang-format -i … when told to. Their
// operands (files, or directories whose files they rewrite) are written
// where they are — `black ~/x.py`, `biome check --write /etc` leave the
// workspace. sass writes its output operand (`sass in.scss out.css`, `in:out`);
// `terraform fmt DIR` rewrites the .tf files there (`-chdir=DIR` moves it);
// rubocop -a, php-cs-fixer fix, mix format, buf format -w, sqlfluff fix,
// clang-tidy --fix rewrite theirs; pre-commit's hooks rewrite `--files`.
// An option value these lists miss is taken for an operand: judged as a
// write too, which only raises the verdict.
import { splitArgs } from "../argv.js";
import { asTargets, cwdWord } from "../targets.js";
import type { Spec, Target } from "../targets.js";
import type { Word } from "../types.js";

/** `positional` written when `writes(flags)` says the run rewrites them. */
function inPlace(values: readonly string[], writes: (flags: readonly string[]) => boolean, skip = 0, cwdDefault = false): Spec {
  const valueOpts = new Set(values);
  return (args) => {
    const a = splitArgs(args.slice(skip), valueOpts);
    if (!writes(a.flags)) return [];
    // codespell and typos walk the working directory when given no operand (`typos -w` was tier 0, round 22).
    return asTargets(a.positional.length === 0 && cwdDefault ? [cwdWord()] : a.positional, "write");
  };
}

/** One of these flags is given, a one-letter one also inside a bundle (`buf format -dw`: taking too much only raises). */
const has =
  (...names: string[]) =>
  (flags: readonly string[]): boolean =>
    flags.some(
      (f) => names.includes(f) || names.some((n) => /^-[a-zA-Z]$/.test(n) && /^-[a-zA-Z]+$/.test(f) && f.includes(n[1] as string)),
    );
const unless =
  (...names: string[]) =>
  (flags: readonly string[]): boolean =>
    !flags.some((f) => names.includes(f));

const BLACK_VALUES = [
  "-l",
  "--line-length",
  "-t",
  "--target-version",
  "--include",
  "--exclude",
  "--extend-exclude",
  "--force-exclude",
  "--config",
  "-W",
  "--workers",
  "--stdin-filename",
  "--required-version",
  "--python-cell-magics",
];
const ISORT_VALUES = [
  "--settings-path",
  "--sp",
  "--settings-file",
  "--settings",
  "-l",
  "--line-length",
  "--profile",
  "-p",
  "--project",
  "--src",
  "--src-path",
  "-m",
  "--multi-line",
  "--skip",
  "-s",
  "--skip-glob",
  "--sg",
  "--filter-files",
  "-j",
  "--jobs",
];
const RUFF_VALUES = [
  "--config",
  "--line-length",
  "--target-version",
  "--select",
  "--ignore",
  "--extend-select",
  "--exclude",
  "--extend-exclude",
  "--stdin-filename",
  "--output-format",
  "--cache-dir",
];
const JS_VALUES = [
  "-c",
  "--config",
  "--ignore-path",
  "--ext",
  "--plugin",
  "--parser",
  "--rule",
  "-f",
  "--format",
  "-o",
  "--output-file",
  "--cache-location",
  "--max-warnings",
  "--resolve-plugins-relative-to",
  "--rulesdir",
  "--stdin-filepath",
  "--log-level",
  "--config-path",
  "--reporter",
  "--max-diagnostics",
  "--custom-syntax",
  "--formatter",
  "--print-width",
  "--tab-width",
  "--end-of-line",
];

/** ruff: `format` rewrites unless --check/--diff; `check` with --fix. */
const ruff: Spec = (args) => {
  const sub = args[0]?.text;
  if (sub === "format") return inPlace(RUFF_VALUES, unless("--check", "--diff"), 1)(args);
  if (sub === "check" || (sub !== undefined && sub.startsWith("-")) || sub === undefined)
    return inPlace(RUFF_VALUES, has("--fix", "--unsafe-fixes", "--fix-only"), sub === "check" ? 1 : 0)(args);
  return [];
};

/** biome/oxlint: `format --write`, `check --write`/`--fix`/`--apply`, `lint --write`. */
const biome: Spec = (args) => {
  const sub = args[0]?.text ?? "";
  const skip = /^[a-z]/.test(sub) ? 1 : 0;
  return inPlace(JS_VALUES, has("--write", "--fix", "--apply", "--apply-unsafe", "--unsafe"), skip)(args);
};

/** sass IN OUT, sass IN:OUT (and DIR:DIR): the output is written. */
const sass: Spec = (args) => {
  const a = splitArgs(args, new Set(["--load-path", "-I", "--style", "-s", "--source-map-urls", "--charset"]));
  const out: Target[] = [];
  if (a.positional.length === 2) out.push(...asTargets([a.positional[1] as Word], "write"));
  for (const w of a.positional) {
    const colon = w.text.indexOf(":");
    if (colon > 0) out.push({ word: { ...w, text: w.text.slice(colon + 1) }, mode: "write" });
  }
  return out;
};

/**
 * terraform/tofu fmt rewrites the configuration files under its operands
 * (the working directory when none; `-chdir=DIR` first moves there) unless
 * only checking (`-check`, `-write=false`); `-` is standard input.
 */
const terraform: Spec = (args) => {
  let i = 0;
  let dir: Word | undefined;
  for (; i < args.length && (args[i] as Word).text.startsWith("-"); i++) {
    const w = args[i] as Word;
    if (w.text.startsWith("-chdir=")) dir = { ...w, text: w.text.slice("-chdir=".length) };
  }
  if (args[i]?.text !== "fmt") return [];
  const rest = args.slice(i + 1);
  if (rest.some((w) => w.text === "-check" || w.text === "--check" || /^--?write=(false|0)$/.test(w.text))) return [];
  const operands = rest.filter((w) => w.dynamic || !w.text.startsWith("-"));
  const base = (w: Word): Word => (dir && !w.text.startsWith("/") ? { ...w, text: `${dir.text.replace(/\/+$/, "")}/${w.text}` } : w);
  return asTargets(operands.length > 0 ? operands.map(base) : [dir ?? { ...(args[i] as Word), text: "." }], "write");
};

/** `SUB` then in-place rewriting of the operands: `php-cs-fixer fix` (or `fi`, `f`: Symfony takes a prefix), `mix format`, `buf format -w`, `sqlfluff fix|format`. */
function subInPlace(subs: readonly string[], values: readonly string[], writes: (flags: readonly string[]) => boolean): Spec {
  return (args) => (subs.includes(args[0]?.text ?? "") ? inPlace(values, writes, 1)(args) : []);
}

/** pre-commit runs the configured hooks (formatters among them) on the files after `--files`. */
const preCommit: Spec = (args) => {
  if (args[0]?.text !== "run") return [];
  const start = args.findIndex((w) => w.text === "--files");
  if (start < 0) return [];
  const files: Word[] = [];
  for (const w of args.slice(start + 1)) {
    if (!w.dynamic && w.text.startsWith("-")) break;
    files.push(w);
  }
  return asTargets(files, "write");
};

export const FORMATTERS: Record<string, Spec> = {
  black: inPlace(BLACK_VALUES, unless("--check", "--diff")),
  isort: inPlace(ISORT_VALUES, unless("--check-only", "--check", "-c", "--diff", "--show-files")),
  autopep8: inPlace(
    ["--max-line-length", "--select", "--ignore", "-j", "--jobs", "--global-config", "--aggressive"],
    has("-i", "--in-place"),
  ),
  yapf: inPlace(["--style", "-p", "--parallel", "-l", "--lines", "-e", "--exclude"], has("-i", "--in-place")),
  ruff,
  rustfmt: inPlace(["--edition", "--config", "--config-path", "--emit", "--color"], unless("--check")),
  "clang-format": inPlace(["--style", "-style", "--assume-filename", "--fallback-style", "--lines", "--offset", "--length"], has("-i")),
  prettier: inPlace(JS_VALUES, has("--write", "-w")),
  eslint: inPlace(JS_VALUES, has("--fix", "--fix-type")),
  stylelint: inPlace(JS_VALUES, has("--fix")),
  "markdownlint-cli2": inPlace(["--config"], has("--fix")),
  biome,
  oxlint: biome,
  shfmt: inPlace(["-i", "--indent", "-ln", "--language-dialect", "-f", "--find"], has("-w", "--write")),
  codespell: inPlace(
    ["-I", "--ignore-words", "-L", "--ignore-words-list", "-S", "--skip", "-D", "--dictionary", "--config"],
    has("-w", "--write-changes"),
    0,
    true,
  ),
  typos: inPlace(["--config", "--exclude", "--format"], has("-w", "--write-changes"), 0, true),
  sass,
  terraform,
  tofu: terraform,
  packer: terraform,
  rubocop: inPlace(
    [
      "-c",
      "--config",
      "-r",
      "--require",
      "-f",
      "--format",
      "-o",
      "--out",
      "--only",
      "--except",
      "--cache-root",
      "--exclude-limit",
      "--fail-level",
      "-s",
      "--stdin",
    ],
    has("-a", "-A", "-x", "--autocorrect", "--autocorrect-all", "--auto-correct", "--auto-correct-all", "--fix-layout"),
  ),
  "php-cs-fixer": subInPlace(
    ["fix", "fi", "f"],
    ["--config", "--rules", "--using-cache", "--cache-file", "--path-mode", "--format", "--allow-risky"],
    unless("--dry-run"),
  ),
  mix: subInPlace(["format"], ["--dot-formatter"], unless("--check-formatted", "--dry-run")),
  buf: subInPlace(["format"], ["--config", "-o", "--output", "--error-format", "--path", "--exclude-path"], has("-w", "--write")),
  sqlfluff: subInPlace(
    ["fix", "format"],
    [
      "--dialect",
      "--templater",
      "--rules",
      "--exclude-rules",
      "--config",
      "-p",
      "--processes",
      "--ignore",
      "--logger",
      "--bench",
      "-x",
      "--fixed-suffix",
    ],
    unless("--check"),
  ),
  "clang-tidy": inPlace(
    [
      "-p",
      "--checks",
      "-checks",
      "--config-file",
      "-config-file",
      "--header-filter",
      "-header-filter",
      "--export-fixes",
      "-export-fixes",
      "--extra-arg",
      "-extra-arg",
      "--line-filter",
    ],
    has("--fix", "-fix", "--fix-errors", "-fix-errors", "--fix-notes", "-fix-notes"),
  ),
  "pre-commit": preCommit,
};

// What the same command line downloads (Context.downloaded, index.ts
// downloadsIn): files a fetcher writes and trees a clone checks out. Code
// in either is code no one has seen, as `curl URL | sh` (reviews 31, 34).
import { posix } from "node:path";
import type { Context } from "./types.js";

/**
 * The cheap test of a text that may clone a tree (`git clone`, `git submodule add`, `gh repo clone`), fetch from the
 * forge (`gh api`) or fetch another repository into this one (`git fetch URL`, `git remote add e URL`).
 */
export const CLONE_WORD = /\b(clone|submodule|gh|fetch|pull|remote)\b/;

/** Whether `path` is a file the same line downloads or lies inside a tree it clones. */
export function downloadedPath(path: string | null, ctx: Context): boolean {
  if (path === null || ctx.downloaded === undefined) return false;
  for (const d of ctx.downloaded) if (path === d || path.startsWith(d === "/" ? "/" : `${d}/`)) return true;
  return false;
}

/**
 * Project files a build, test or task runner reads from its working directory
 * unasked, whose content is code or names commands (a Makefile's recipes,
 * package.json scripts, conftest.py, a JS tool's `*.config.js`, pre-commit's hooks).
 */
export const PROJECT_FILE =
  /^(?:GNUmakefile|[Mm]akefile|package\.json|conftest\.py|pytest\.ini|pyproject\.toml|setup\.(?:py|cfg)|tox\.ini|noxfile\.py|Cargo\.toml|build\.rs|go\.mod|[Jj]ustfile|Taskfile\.ya?ml|Rakefile|Gemfile|build\.gradle(?:\.kts)?|settings\.gradle(?:\.kts)?|gradle\.properties|pom\.xml|CMakeLists\.txt|meson\.build|SConstruct|composer\.json|phpunit\.xml(?:\.dist)?|deno\.jsonc?|mkdocs\.ya?ml|\.pre-commit-config\.ya?ml|\.npmrc|\.yarnrc(?:\.yml)?|\.bazelrc|tsconfig\.json|[\w.-]+\.config\.[cm]?[jt]s|\.[\w-]+rc(?:\.[cm]?[jt]s|\.json|\.ya?ml)?)$/;

/**
 * Why a runner started in the working directory runs downloaded code: the
 * directory is inside a tree the line clones (`git clone URL d && cd d &&
 * make`), or holds a project file the line downloads (`curl -o Makefile URL
 * && make`); null when neither.
 */
export function downloadedProject(name: string, ctx: Context): string | null {
  if (ctx.downloaded === undefined || ctx.cwd === "") return null;
  if (downloadedPath(ctx.cwd, ctx)) return `${name} runs the project in ${ctx.cwd}, which the same command line clones or downloads`;
  for (const d of ctx.downloaded)
    if (posix.dirname(d) === ctx.cwd && PROJECT_FILE.test(posix.basename(d)))
      return `${name} loads ${posix.basename(d)} from ${ctx.cwd}, which the same command line downloads`;
  return null;
}

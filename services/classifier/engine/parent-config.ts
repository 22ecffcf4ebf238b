// Configuration build and task tools look for in every directory up from where they run, past the project (round 26:
// a parent's `.mvn/jvm.config`, `pytest.ini` and its `conftest.py`, `Directory.Build.props`, `settings.gradle`,
// `deno.json`; round 28: cargo's `.cargo/config.toml`, a parent's package.json scripts, justfile, Taskfile, Rakefile,
// go.work, eslint.config.js …): under a shared directory such as /tmp, whoever wrote it decides what runs.
import { posix } from "node:path";
import { lstat } from "./host-paths.js";
import type { Context } from "./types.js";

interface ParentConfig {
  /** Files (relative to a directory) the tool reads from a directory above the workspace. */
  files: readonly string[];
  /**
   * The tool merges every one it finds up to / (cargo), or the outermost one wins (dune): one above counts even when
   * the workspace has its own. Otherwise it stops at the first it finds, so one in the workspace hides those above.
   */
  merged?: boolean;
}

const CARGO: ParentConfig = { files: [".cargo/config.toml", ".cargo/config"], merged: true };
const PACKAGE_JSON: ParentConfig = { files: ["package.json"] };
const NODE_MODULES: ParentConfig = { files: ["node_modules"], merged: true };
const BUNDLER: ParentConfig = { files: ["Gemfile", "gems.rb"] };
const RAKE: ParentConfig = { files: ["Rakefile", "rakefile", "Rakefile.rb", "rakefile.rb"] };
/** Bazel's workspace root is the nearest directory with a boundary file; its .bazelrc is read from there. */
const BAZEL: ParentConfig = { files: ["MODULE.bazel", "REPO.bazel", "WORKSPACE", "WORKSPACE.bazel"] };
const PYPROJECT: ParentConfig = { files: ["pyproject.toml"] };
const ESLINT_FLAT = ["js", "mjs", "cjs", "ts", "mts", "cts"].map((e) => `eslint.config.${e}`);
/** ESLint 8's .eslintrc files cascade from every directory up to one saying `root: true`; plugins load beside them. */
const ESLINTRC = [".eslintrc.js", ".eslintrc.cjs", ".eslintrc.yaml", ".eslintrc.yml", ".eslintrc.json", ".eslintrc"];
const DOTNET = [
  "Directory.Build.props",
  "Directory.Build.targets",
  "Directory.Packages.props",
  "Directory.Build.rsp",
  "NuGet.Config",
  "nuget.config",
];
const PYTEST: ParentConfig = { files: ["pytest.ini", ".pytest.ini", "conftest.py"], merged: true };

const PARENT_CONFIG: ReadonlyMap<string, readonly ParentConfig[]> = new Map(
  Object.entries({
    mvn: [{ files: [".mvn"], merged: true }],
    mvnw: [{ files: [".mvn"], merged: true }],
    gradle: [{ files: ["settings.gradle", "settings.gradle.kts"], merged: true }],
    gradlew: [{ files: ["settings.gradle", "settings.gradle.kts"], merged: true }],
    dotnet: [{ files: DOTNET, merged: true }],
    msbuild: [{ files: ["Directory.Build.props", "Directory.Build.targets", "Directory.Build.rsp"], merged: true }],
    deno: [{ files: ["deno.json", "deno.jsonc"], merged: true }],
    pytest: [PYTEST],
    "py.test": [PYTEST],
    // Cargo merges .cargo/config.toml from every ancestor, even with the workspace's own (rustc-wrapper, runners,
    // aliases that take over external subcommands): `cargo metadata` ran a parent's rustc-wrapper (round 28).
    cargo: [CARGO],
    // npm, yarn and pnpm run the scripts of the nearest package.json up the tree; yarn 2+ merges every .yarnrc.yml
    // (its yarnPath is JavaScript it runs); pnpm takes the nearest pnpm-workspace.yaml as the workspace root.
    // Every ancestor's node_modules counts, the workspace's own too: require() falls through to a parent's for a
    // package not installed here, and npm, yarn, pnpm and npx put every ancestor's node_modules/.bin on PATH (round
    // 29: `node app.js` loaded a parent's lodash, `npm test` ran a parent's vitest). `node --run` and bun walk up for
    // package.json as npm does.
    npm: [PACKAGE_JSON, NODE_MODULES],
    npx: [PACKAGE_JSON, NODE_MODULES],
    yarn: [PACKAGE_JSON, { files: [".yarnrc.yml"], merged: true }, NODE_MODULES],
    pnpm: [PACKAGE_JSON, { files: ["pnpm-workspace.yaml"] }, NODE_MODULES],
    node: [PACKAGE_JSON, NODE_MODULES],
    tsx: [NODE_MODULES],
    bun: [PACKAGE_JSON, { files: ["bunfig.toml"] }, NODE_MODULES],
    bunx: [NODE_MODULES],
    pipenv: [{ files: ["Pipfile"] }],
    just: [{ files: ["justfile", ".justfile", "Justfile", "JUSTFILE"] }],
    task: [
      {
        files: ["yml", "yaml", "dist.yml", "dist.yaml"].flatMap((e) => [`Taskfile.${e}`, `taskfile.${e}`]),
      },
    ],
    rake: [RAKE],
    bundle: [BUNDLER],
    zig: [{ files: ["build.zig"] }],
    // go.work in any parent applies even when the workspace has its own go.mod (its replace and use lines).
    go: [{ files: ["go.work"] }],
    // The outermost dune-workspace, or else dune-project, is dune's root: every dune file under it is built.
    dune: [{ files: ["dune-workspace", "dune-project"], merged: true }],
    cabal: [{ files: ["cabal.project"] }],
    stack: [{ files: ["stack.yaml"] }],
    swift: [{ files: ["Package.swift"] }],
    bazel: [BAZEL],
    bazelisk: [BAZEL],
    poetry: [PYPROJECT, { files: ["poetry.toml"] }],
    pdm: [PYPROJECT, { files: ["pdm.toml"] }],
    hatch: [PYPROJECT, { files: ["hatch.toml"] }],
    // uv looks for a workspace root above a project's own pyproject.toml, and reads uv.toml from parents.
    uv: [{ files: ["pyproject.toml", "uv.toml"], merged: true }],
    uvx: [{ files: ["uv.toml"] }],
    eslint: [{ files: ESLINT_FLAT }, { files: ESLINTRC, merged: true }],
    // golangci-lint's config names plugins (shared objects, module plugins); rubocop's `require:` loads Ruby.
    "golangci-lint": [{ files: [".golangci.yml", ".golangci.yaml", ".golangci.toml", ".golangci.json"] }],
    rubocop: [{ files: [".rubocop.yml"] }],
  } satisfies Record<string, readonly ParentConfig[]>),
);

/** The tool's entries: cargo's plugins (`cargo-nextest`, `cargo-llvm-cov`) read cargo's configuration too. */
function entries(name: string): readonly ParentConfig[] | undefined {
  return PARENT_CONFIG.get(name) ?? (name.startsWith("cargo-") ? [CARGO] : undefined);
}

const join = (dir: string, file: string): string => `${dir === "/" ? "" : dir}/${file}`;
const present = (dir: string, files: readonly string[]): string | undefined =>
  files.map((f) => join(dir, f)).find((p) => lstat(p) !== null);

/**
 * The configuration file `name` reads from a directory above the workspace, or null. "Above" starts at the parent of
 * the outermost workspace root holding the working directory (a monorepo's own root package.json is the project's).
 */
export function parentConfig(name: string, ctx: Context): string | null {
  const configs = entries(name);
  if (configs === undefined || ctx.policy !== "claude" || ctx.remote) return null;
  const roots = ctx.workspace.filter((w) => ctx.cwd === w || ctx.cwd.startsWith(`${w}/`));
  const root = roots.reduce<string | undefined>((a, w) => (a === undefined || w.length < a.length ? w : a), undefined);
  if (root === undefined || root === "/") return null;
  const owner = lstat(root);
  const uid = owner === null || owner === "unknown" ? null : owner.uid;
  // Only a directory someone else may write can hold a file no one judged: one root or the workspace's owner alone
  // writes (/, /home, ~/projects) holds their own configuration — the agent cannot have written it there without a
  // write judged as outside the workspace. The user's home is theirs (~/.cargo/config.toml is also cargo's CARGO_HOME
  // config, ~/.rubocop.yml rubocop's personal one). Found once, nearest first; with none, nothing below is looked up.
  const shared: string[] = [];
  for (let dir = posix.dirname(root); ; dir = posix.dirname(dir)) {
    if (dir !== ctx.home && othersMayWrite(dir, uid)) shared.push(dir);
    if (dir === "/") break;
  }
  if (shared.length === 0) return null;
  for (const config of configs) {
    if (!config.merged && nearestInside(config.files, ctx.cwd, root)) continue;
    for (const dir of shared) {
      const found = present(dir, config.files);
      if (found !== undefined) return found;
    }
  }
  return null;
}

/** A directory that is not the workspace owner's or root's, or that others may write (`/tmp`); unknown counts. */
function othersMayWrite(dir: string, uid: bigint | null): boolean {
  const st = lstat(dir);
  if (st === null) return false;
  if (st === "unknown" || uid === null) return true;
  return (st.uid !== uid && st.uid !== 0n) || (st.mode & 0o022n) !== 0n;
}

/** Whether a tool that stops at the first file finds one between the working directory and the workspace root. */
function nearestInside(files: readonly string[], cwd: string, root: string): boolean {
  for (let dir = cwd; ; dir = posix.dirname(dir)) {
    if (present(dir, files) !== undefined) return true;
    if (dir === root || dir === "/") return false;
  }
}

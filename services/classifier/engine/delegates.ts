// Commands that run other commands from their arguments: find -exec/-ok/-delete,
// xargs, parallel, watch, ssh host 'cmd', docker/podman run|exec, docker compose
// run|exec, kubectl exec, npx, environment runners (uv run, poetry run, bundle
// exec …), and options that name a command (git --upload-pack/-c core.pager/
// difftool -x/submodule foreach, tar --to-command/-I, make --eval, cmake -E,
// gdb -ex 'shell …', nodemon --exec). The delegated command is judged like any other.
// What each program delegates lives with its tool family in tools/; the
// registry (tools/index.ts) names the handler of each program.
import { DELEGATES } from "./tools/index.js";
import type { StdinSource, Word } from "./types.js";
import type { Unwrap } from "./unwrap.js";

/** A delegating command's unwrapping, or null when `name args` delegates nothing. */
export function delegate(name: string, args: Word[], stdin: StdinSource | null = null, cwd?: string): Unwrap | null {
  return DELEGATES.get(name)?.(name, args, stdin, cwd) ?? null;
}

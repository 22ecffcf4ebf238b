// "Is it there, and what is it" in one system call, for callers that treat
// anything they cannot look at as absent (the envelope's masks, the sandbox's
// diff of an upper layer against the host). Node built-ins only.
import { lstatSync, type Stats } from "node:fs";

/** lstat, or undefined where nothing can be looked at; a missing path throws nothing (an exception costs more than the call). */
export function tryLstat(path: string): Stats | undefined {
  try {
    return lstatSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

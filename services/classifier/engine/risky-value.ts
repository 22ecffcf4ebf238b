// Whether setting a variable in a program's environment changes what it (or what it starts) runs or loads: the
// risky names (PATH, BASH_ENV, LD_PRELOAD, PYTHONPATH, NODE_OPTIONS …) unless the value is a harmless everyday one.
// judge.ts asks for every assignment; make asks for its command-line variables, which it exports to every recipe.
import { harmlessValue } from "./tool-variables.js";
import { riskyAssignment } from "./wrappers.js";

/** An empty CDPATH or GLOBIGNORE is bash's default. */
const EMPTY_IS_DEFAULT = new Set(["CDPATH", "GLOBIGNORE"]);

export function riskyValue(name: string, literal: string | null): boolean {
  return riskyAssignment(name) && !(literal === "" && EMPTY_IS_DEFAULT.has(name)) && !harmlessValue(name, literal);
}

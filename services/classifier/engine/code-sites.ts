// Places where bash evaluates a variable's *value* as code: arithmetic
// (`$((x))`, `$[x]`, `((x))`, `let`, `[[ x -eq 0 ]]`, array subscripts,
// `${s:off}`, `declare -i`) evaluates a value like `a[$(cmd)]`
// recursively and runs cmd; indirection (`${!x}`) does the same with the
// name in x; `${x@P}` expands x as a prompt, command substitutions
// included. A value written in the command is judged where it is written
// (judge.ts latentCode). Any other value — inherited from the environment
// (which an earlier command may have set to anything), read, computed by a
// command substitution, a loop over globs — is not known: when it reaches
// one of these places the command may run code it does not show, and is
// tier 2 at least. variables.ts says which values are surely numbers.
import type { TierNumber } from "../../shared/tier.js";
import type { Use, Variables } from "./variables.js";

export interface CodeSite {
  tier: TierNumber;
  rule: string;
  reason: string;
}

const site = (reason: string): CodeSite => ({ tier: 2, rule: "evaluated-code", reason });

/** Where the value may come from, for the reason. */
function origin(v: Variables, name: string): string {
  return v.poisoned !== null
    ? `computed at run time (${v.poisoned})`
    : v.assigns(name)
      ? "computed at run time or not surely set here"
      : "not set in this command (inherited from the environment, where it may hold `a[$(…)]`)";
}

/** A name `${!x}` or `${x@P}` may take safely: a plain identifier written in the command. */
function plainName(v: Variables, u: Use): boolean {
  const values = v.valuesAt(u.name, u);
  return (
    values !== null && values.every((x) => !x.glob && (u.kind === "indirect" ? /^[A-Za-z_][A-Za-z0-9_]*$/ : /^[^$`\\]*$/).test(x.text))
  );
}

/** The first place in the command where bash evaluates a value not known to be safe, or null. */
export function codeSite(v: Variables): CodeSite | null {
  for (const u of v.uses) {
    switch (u.kind) {
      case "arith":
        if (!v.numericAt(u.name, u))
          return site(
            `arithmetic over ${u.name}, whose value is ${origin(v, u.name)}: bash evaluates it as an expression, and a subscript in it runs its command substitutions`,
          );
        break;
      case "substitution":
        return site(
          `arithmetic over the output of ${u.name}: bash evaluates that text as an expression, and a subscript in it runs its command substitutions`,
        );
      case "positional":
        return site(
          `arithmetic over ${u.name}, whose value is not known here: bash evaluates it as an expression, and a subscript in it runs its command substitutions`,
        );
      case "indirect":
        if (!plainName(v, u))
          return site(
            `\${!${u.name}} takes the name to expand from ${u.name}, whose value is ${origin(v, u.name)}: bash evaluates a subscript in it, command substitutions included`,
          );
        break;
      case "prompt":
        if (!plainName(v, u))
          return site(
            `\${${u.name}@P} expands ${u.name}'s value as a prompt, which runs the command substitutions in it; the value is ${origin(v, u.name)}`,
          );
        break;
    }
  }
  return null;
}

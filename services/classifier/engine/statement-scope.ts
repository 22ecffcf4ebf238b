// Where an assignment surely holds: bash runs the statements of a list (a
// script, a loop body, a group, a subshell, a branch) one after another in
// one shell, so an assignment that is one of them — or heads an `&&`/`||`
// list that is — holds for what comes after it inside. Behind a pipe, `&`,
// a command prefix or the right of `&&` it may not have run, or ran in
// another shell; a then-branch says nothing about the else-branch.
import type { SyntaxNode as Node } from "./syntax-tree.js";

export interface Scope {
  /** Holds after this offset, inside this node, outside these. */
  within: Node | null;
  after: number;
  exclude: Node[];
}

export const NOWHERE: Scope = { within: null, after: 0, exclude: [] };

/** Node types whose statements run one after another in one shell. */
const CONTAINERS = new Set([
  "program",
  "do_group",
  "subshell",
  "if_statement",
  "elif_clause",
  "else_clause",
  "case_item",
  "while_statement",
  "command_substitution",
  "process_substitution",
]);

export function isAncestor(a: Node, b: Node): boolean {
  for (let n: Node | null = b; n !== null; n = n.parent) if (n.id === a.id) return true;
  return false;
}

export const isArithmeticCommand = (n: Node) => n.type === "compound_statement" && n.text.startsWith("((");

/** Where an assignment at `n` (a statement's part) surely holds, or null when it may not have run. */
export function statementScope(n: Node): Scope | null {
  let s = n;
  for (let depth = 0; depth < 64; depth++) {
    const p = s.parent;
    if (p === null) return null;
    if (p.type === "declaration_command" && (s.type === "variable_assignment" || s.type === "variable_name")) {
      s = p;
      continue;
    }
    // The left-hand side of `&&` / `||` always runs.
    if (p.type === "list" && p.namedChildren[0]?.id === s.id) {
      s = p;
      continue;
    }
    if (!CONTAINERS.has(p.type) && !(p.type === "compound_statement" && !isArithmeticCommand(p))) return null;
    // `x=5 & …` sets x in a background subshell.
    if (s.nextSibling?.type === "&") return null;
    let exclude: Node[] = [];
    if (p.type === "if_statement" || p.type === "elif_clause") {
      const i = p.children.findIndex((c) => c?.id === s.id);
      if (p.fieldNameForChild(i) !== "condition")
        exclude = p.namedChildren.filter((c): c is Node => c !== null && (c.type === "elif_clause" || c.type === "else_clause"));
    }
    // After the assignment itself: the rest of an `&&` list it heads runs after it too.
    return { within: p, after: n.endIndex, exclude };
  }
  return null;
}

export function inFunction(n: Node): boolean {
  for (let p = n.parent; p !== null; p = p.parent) if (p.type === "function_definition") return true;
  return false;
}

/** Whether `scope` covers a use at `pos` inside `node`. */
export function holds(scope: Scope, pos: number, node: Node): boolean {
  return scope.within !== null && pos >= scope.after && isAncestor(scope.within, node) && !scope.exclude.some((e) => isAncestor(e, node));
}

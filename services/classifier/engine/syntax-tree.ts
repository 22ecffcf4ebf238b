// A parse tree copied out of tree-sitter in one cursor walk. web-tree-sitter's
// nodes live in WebAssembly memory: every `.type`, `.text` or `.children`
// marshals the node and crosses into wasm, and the classifier asks each node
// many times. This copy answers the same questions from plain objects, with
// the same answers (syntax-tree.spec.ts compares both on every corpus
// command), and lives on after the wasm tree is freed.
import type { Tree } from "web-tree-sitter";

export class SyntaxNode {
  readonly children: SyntaxNode[] = [];
  private named: SyntaxNode[] | null = null;
  private cachedText: string | null = null;

  constructor(
    readonly id: number,
    readonly type: string,
    readonly isNamed: boolean,
    readonly startIndex: number,
    readonly endIndex: number,
    /** The field this node fills in its parent (`name`, `argument`, `destination` …), or null. */
    readonly field: string | null,
    readonly parent: SyntaxNode | null,
    private readonly source: string,
  ) {}

  get text(): string {
    if (this.cachedText === null) this.cachedText = this.source.slice(this.startIndex, this.endIndex);
    return this.cachedText;
  }

  get childCount(): number {
    return this.children.length;
  }

  get namedChildren(): SyntaxNode[] {
    if (this.named === null) this.named = this.children.filter((c) => c.isNamed);
    return this.named;
  }

  child(i: number): SyntaxNode | null {
    return this.children[i] ?? null;
  }

  fieldNameForChild(i: number): string | null {
    return this.children[i]?.field ?? null;
  }

  childForFieldName(name: string): SyntaxNode | null {
    return this.children.find((c) => c.field === name) ?? null;
  }

  childrenForFieldName(name: string): SyntaxNode[] {
    return this.children.filter((c) => c.field === name);
  }

  /**
   * The next child of the parent. Where error recovery closed an expression
   * with a zero-width MISSING token, this names that token and tree-sitter's
   * own position search skips it; no caller looks for such a token.
   */
  get nextSibling(): SyntaxNode | null {
    const siblings = this.parent?.children;
    if (!siblings) return null;
    return siblings[siblings.indexOf(this) + 1] ?? null;
  }

  /** This node and every node below it whose type is one of `types`, in document order. */
  descendantsOfType(types: string | readonly string[]): SyntaxNode[] {
    const want = typeof types === "string" ? [types] : types;
    const out: SyntaxNode[] = [];
    const visit = (n: SyntaxNode): void => {
      if (want.includes(n.type)) out.push(n);
      for (const c of n.children) visit(c);
    };
    visit(this);
    return out;
  }
}

/** Copy `tree` (parsed from `source`) into SyntaxNodes; the root is returned. */
export function copyTree(tree: Tree, source: string): SyntaxNode {
  const { types, fields } = tree.language;
  const cursor = tree.walk();
  let id = 0;
  const make = (parent: SyntaxNode | null, field: string | null) =>
    new SyntaxNode(
      id++,
      types[cursor.nodeTypeId] || "ERROR",
      cursor.nodeIsNamed,
      cursor.startIndex,
      cursor.endIndex,
      field,
      parent,
      source,
    );
  try {
    const root = make(null, null);
    let parent = root;
    if (!cursor.gotoFirstChild()) return root;
    for (;;) {
      const node = make(parent, fields[cursor.currentFieldId] ?? null);
      parent.children.push(node);
      if (cursor.gotoFirstChild()) {
        parent = node;
        continue;
      }
      while (!cursor.gotoNextSibling()) {
        if (!cursor.gotoParent() || parent.parent === null) return root;
        parent = parent.parent;
      }
    }
  } finally {
    cursor.delete();
  }
}

// The import graph of the tree, as the layering spec reads it: every
// module a file reaches, transitively, through static imports, re-exports
// and dynamic import("…") of a literal. Relative specifiers resolve to the
// TypeScript source (x.js → x.ts); a package import is named by its package
// (`@grpc/grpc-js`, `node:fs`).
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

/** import/export … from "x" and import "x" at the start of a line (a clause may span lines); import("x") anywhere. */
const STATIC = /^\s*(?:import|export)\s+(type\s+)?(?:[\w*{}\s,$]+?\s+from\s+)?["']([^"']+)["']/gm;
const DYNAMIC = /import\(\s*["']([^"']+)["']\s*\)/g;

/**
 * The specifiers a source file imports (type-only imports included: they are
 * part of the design too), or with `values`, only those that load code at run
 * time (`import type …` / `export type …` left out).
 */
export function importsOf(source: string, values = false): string[] {
  const statics = [...source.matchAll(STATIC)].filter((m) => !values || m[1] === undefined).map((m) => m[2] as string);
  return [...statics, ...[...source.matchAll(DYNAMIC)].map((m) => m[1] as string)];
}

/** A package specifier's package name (`node:fs` stays whole). */
export function packageOf(spec: string): string {
  if (spec.startsWith("node:")) return spec;
  const parts = spec.split("/");
  return spec.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] as string);
}

export interface Reach {
  /** Repository-relative paths of every source file reached (the entry included). */
  files: Set<string>;
  /** Every package reached, with one file that imports it. */
  packages: Map<string, string>;
  /** For each file reached, the file that first imported it (to print the chain). */
  via: Map<string, string>;
}

/** Everything `entry` (repository-relative) reaches; with `values`, only what it loads at run time. */
export function reach(root: string, entry: string, values = false): Reach {
  const out: Reach = { files: new Set(), packages: new Map(), via: new Map() };
  const queue = [entry];
  out.files.add(entry);
  while (queue.length > 0) {
    const file = queue.shift() as string;
    for (const spec of importsOf(readFileSync(join(root, file), "utf8"), values)) {
      if (!spec.startsWith(".")) {
        const pkg = packageOf(spec);
        if (!out.packages.has(pkg)) out.packages.set(pkg, file);
        continue;
      }
      const abs = resolve(root, dirname(file), spec);
      const candidates = [abs.replace(/\.js$/, ".ts"), abs.replace(/\.js$/, ".mts"), abs, `${abs}.ts`, join(abs, "index.ts")];
      const found = candidates.find((c) => existsSync(c) && !c.endsWith("/"));
      if (!found) throw new Error(`${file}: cannot resolve ${spec}`);
      const rel = relative(root, found);
      if (out.files.has(rel)) continue;
      out.files.add(rel);
      out.via.set(rel, file);
      queue.push(rel);
    }
  }
  return out;
}

/** entry → … → file, for a failure message. */
export function chain(r: Reach, file: string): string {
  const path = [file];
  for (let at = r.via.get(file); at !== undefined; at = r.via.get(at)) path.unshift(at);
  return path.join(" → ");
}

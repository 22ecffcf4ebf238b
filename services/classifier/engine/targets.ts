// What a program writes, as the effect analysis reads it: each target word
// and how it is changed (written, deleted, re-permissioned, as a tree or not),
// and the small builders the per-tool argument shapes share.
import { splitArgs } from "./argv.js";
import type { Word } from "./types.js";
import { literalWord } from "./unwrap.js";

export type Mode = "write" | "delete" | "tree" | "perm" | "perm-tree";

export interface Target {
  word: Word;
  mode: Mode;
  /** No option named it: the program is assumed to write where it runs. */
  implicit?: boolean;
  /** The content is moved elsewhere, not destroyed (mv's sources). */
  keeps?: boolean;
  /** Where a moved source's content goes (the destination, and its entry for the source when it is a directory). */
  movedTo?: Word[];
  /** A hard link's source: not changed, its content shared with `movedTo`. */
  shares?: boolean;
  /** A directory filled with entries whose names are not known here (an extraction): its links are written through. */
  fills?: boolean;
  /** A directory that gets one file whose name (no slash) the server chooses (`curl -OJ`, `aria2c URL`). */
  serverNamed?: boolean;
  /** The program follows every link below the target (`find -L … -delete`, `chown -RL`): what each leads to is changed too. */
  followsLinks?: boolean;
  /** A tree whose entries land under this target (a recursive copy, a move, a link to a directory): each is judged as a write there. */
  tree?: Word;
}

export type Spec = (args: readonly Word[]) => Target[];

/** Every word as a target changed in one way. */
export const asTargets = (ws: Word[], mode: Mode): Target[] => ws.map((word) => ({ word, mode }));
/** The working directory, as a word. */
export const cwdWord = (): Word => literalWord(".");

/** The value of the first of `opts` given is written; without one, the working directory when `fallbackCwd`. */
export function optionValueSpec(opts: string[], fallbackCwd: boolean): Spec {
  return (args) => {
    const a = splitArgs(args, new Set(opts));
    for (const o of opts) {
      const v = a.values.get(o);
      if (v) return [{ word: v, mode: "write" }];
    }
    return fallbackCwd ? [{ word: cwdWord(), mode: "write", implicit: true }] : [];
  };
}

/** The target of a working-directory writer (build tools, package managers run in place). */
export function cwdTarget(): Target {
  return { word: cwdWord(), mode: "write" };
}

// The trees the system's packages own, and the test a program or directory named by root's configuration must pass:
// a file there changes only with a package (whose scripts and files the diff judge reads), so what it names is the
// distribution's, not something staged earlier in /opt or /srv at tier 3 (review 50).
import { posix } from "node:path";

/** Trees the system's packages own (not /usr/local). */
export const PACKAGED = /^\/(?:usr\/(?!local\/)|bin\/|sbin\/|lib\/|lib32\/|lib64\/|libx32\/)/;

/** `word` when it is a path outside the packaged trees (a relative one, one that climbs), else null; a bare name is found on root's PATH. */
export function unpackaged(word: string): string | null {
  if (!word.includes("/")) return null;
  return PACKAGED.test(posix.normalize(word)) && !word.includes("..") ? null : word;
}

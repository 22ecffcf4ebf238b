// go build/test/run pass -ldflags to the linker and -gcflags to the compiler. With `-linkmode=external`, the linker's
// `-extld PROG` runs PROG as the external linker and `-extldflags` hands that linker flags (`-B DIR`: its programs from
// DIR; `-fuse-ld=`); `-tmpdir` is where it writes. Round 28: `go build -ldflags='-linkmode=external -extld=/tmp/x' .`
// ran /tmp/x at tier 1. Any of these names a program or place the table cannot see: the option's words, or null.
import type { Word } from "./types.js";

const FLAG_OPTIONS = /^--?(?:ldflags|gcflags|asmflags)(?:=(.*))?$/s;
const RUNS_OR_WRITES = /(?:^|[\s'"=])-{1,2}(?:extld(?:flags)?|tmpdir)\b/;

export function goLinkerFlags(args: readonly Word[]): string | null {
  for (let i = 0; i < args.length; i++) {
    const m = FLAG_OPTIONS.exec((args[i] as Word).text);
    if (!m) continue;
    const value = m[1] !== undefined ? (args[i] as Word) : args[i + 1];
    const text = m[1] ?? value?.text ?? "";
    if (value?.dynamic || RUNS_OR_WRITES.test(text)) return text;
  }
  return null;
}

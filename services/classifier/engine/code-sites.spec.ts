// Values not known to be safe reaching places bash evaluates as code.
import { beforeAll, describe, expect, it } from "vitest";
import { loadBashParser } from "./parse.js";
import type { BashParser } from "./parse.js";

let parser: BashParser;
beforeAll(async () => {
  parser = await loadBashParser();
});
const site = (c: string) => parser.parse(c).site;

describe("code sites", () => {
  it("flags a run-time value in arithmetic, indirection and @P", () => {
    for (const c of [
      "x=$(cat f); echo $((x))",
      "read x < f; echo $(( x + 1 ))",
      "read -r n; (( n > 3 ))",
      "read v; let w=v+1",
      "read v; [[ $v -eq 3 ]]",
      "read i; echo ${arr[i]}",
      "read o; echo ${s:o}",
      "for f in *; do echo $((f)); done",
      "mapfile -t l < f; echo $(( l[0] ))",
      "x=$(cat f); echo ${!x}",
      "y=$1; echo ${y@P}",
      'x="$(cat f)"; echo $((x))',
      'printf -v n %s "$1"; echo $((n))',
      "getopts ab opt; echo $((opt))",
      "declare -i n=$(cat f)",
      "read n; declare -i m=n",
    ])
      expect(site(c), c).not.toBeNull();
  });

  it("flags a value inherited from the environment, or not surely set first", () => {
    for (const c of [
      "echo $((x))",
      "echo $[x]",
      "(( x ))",
      "let x",
      "[[ x -eq 1 ]]",
      "[[ $x -eq 0 ]]",
      "echo ${a[x]}",
      "echo ${s:x}",
      "echo ${s:0:x}",
      "let i=i+1",
      "x=$((y+1)); echo $((x))",
      "echo ${!x}",
      "echo ${x@P}",
      "echo $((x)); x=5",
      "x=5 | echo $((x))",
      "x=5 & echo $((x))",
      "false && x=5; echo $((x))",
      "(x=5); echo $((x))",
      "if a; then x=5; else echo $((x)); fi",
      "x=5 echo $((x))",
      "f() { x=5; }; echo $((x))",
      "x=5; eval 'x=y'; echo $((x))",
      "x=abc; echo $((x))",
      "echo $(( $(cat n) + 1 ))",
      "f() { echo $(( $1 )); }",
      "echo $((_))",
      "test -v 'a[x]'",
      "printf -v 'a[x]' y",
      "declare -i n; n=x",
      "a[x]=1",
      "unset -v 'a[x]'",
      'echo "$((x))"',
    ])
      expect(site(c), c).not.toBeNull();
  });

  it("leaves literal and numeric values, quoted text and bash's own counters alone", () => {
    for (const c of [
      "x=5; echo $((x))",
      "for i in 1 2 3; do echo $((i)); done",
      "for i in $(seq 1 5); do echo $((i)); done",
      "n=$(wc -l < f); echo $((n))",
      "s=$(date +%s); echo $(( $(date +%s) - s ))",
      "echo '$((x))'",
      "echo $((RANDOM % 6))",
      'x=$(cat f); echo "$x"',
      'read x; echo "$x"',
      "y=1; x=$((y+1)); echo $((x))",
      "for ((i=0; i<10; i++)); do echo $i; done",
      "for i in {1..5}; do echo $((i*2)); done",
      "echo $(( 16#ff + 0x10 ))",
      "a=(1 2 3); echo ${#a[@]} ${a[0]} ${a[@]:1}",
      "echo ${x:-default} ${x:=5} ${#x}",
      "x=5 && echo $((x))",
      "if true; then x=5; echo $((x)); fi",
      "declare -A m; m[key]=1; echo ${m[key]}",
      "[[ $# -eq 0 ]]",
      "x=1; (( x++ )); echo $x",
      "local_count=0; echo $((local_count + 1))",
      "cat <<'EOF'\n$((x))\nEOF",
      "x=5; f() { echo $((x)); }",
      '[ "$x" -eq 1 ]',
    ])
      expect(site(c), c).toBeNull();
  });
});

// Run-time values reaching places bash evaluates as code.
import { describe, expect, it } from "vitest";
import { codeSite } from "./code-sites.js";

describe("code sites", () => {
  it("flags a run-time value in arithmetic, indirection and @P", () => {
    for (const c of [
      "x=$(cat f); echo $((x))", "read x < f; echo $(( x + 1 ))", "read -r n; (( n > 3 ))", "read v; let w=v+1", "read v; [[ $v -eq 3 ]]",
      "read i; echo ${arr[i]}", "read o; echo ${s:o}", "for f in *; do echo $((f)); done", "mapfile -t l < f; echo $(( l[0] ))",
      "x=$(cat f); echo ${!x}", "y=$1; echo ${y@P}", "x=\"$(cat f)\"; echo $((x))", "printf -v n %s \"$1\"; echo $((n))",
      "getopts ab opt; echo $((opt))", "declare -i n=$(cat f)", "read n; declare -i m=n",
    ]) expect(codeSite(c), c).not.toBeNull();
  });

  it("leaves literal and numeric values, quoted text and inherited variables alone", () => {
    for (const c of [
      "x=5; echo $((x))", "for i in 1 2 3; do echo $((i)); done", "for i in $(seq 1 5); do echo $((i)); done", "n=$(wc -l < f); echo $((n))",
      "s=$(date +%s); echo $(( $(date +%s) - s ))", "echo '$((x))'", "echo $((RANDOM % 6))", "x=$(cat f); echo \"$x\"", "read x; echo \"$x\"",
      "x=$((y+1)); echo $((x))",
    ]) expect(codeSite(c), c).toBeNull();
  });
});

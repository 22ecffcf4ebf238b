// The starter engine: a short enumerated list of read-only commands is tier
// 0; everything else is tier 4. Deliberately tiny and obviously safe: no
// shell metacharacters at all, so a listed program cannot smuggle a second
// command. The real engine replaces this behind the Engine interface.
import { createHash } from "node:crypto";
import type { ClassifyInput, Engine, Verdict } from "./verdict.js";

// Programs whose every argument form only reads and reveals no secret.
const WITH_ARGS: ReadonlyArray<readonly string[]> = [["ls"], ["echo"], ["df"], ["git", "status"]];
// Programs that are read-only only without arguments (`date -s`, `hostname x` write).
const EXACT: ReadonlyArray<string> = ["pwd", "whoami", "id", "date", "uptime", "hostname", "uname", "free", "true"];

// Anything beyond plain words, quotes-free: no ; | & $ ` < > ( ) { } \ * ? [ ] ! ~ # = or newlines.
const PLAIN = /^[A-Za-z0-9_./:,@%+-]+(?: +[A-Za-z0-9_./:,@%+-]+)*$/;

export function enumeratedEngine(): Engine {
  const policyDigest = createHash("sha256").update(JSON.stringify([WITH_ARGS, EXACT])).digest();
  return {
    policyDigest,
    classify(input: ClassifyInput): Verdict {
      const text = input.command.trim();
      const refuse = (reason: string): Verdict => ({
        tier: 4, rule: "default-refuse", reason, explicit: false, parts: [{ text, tier: 4, rule: "default-refuse", reason }],
      });
      if (!PLAIN.test(text)) return refuse("not a plain listed command");
      const words = text.split(" ");
      const allow = (entry: string): Verdict => {
        const rule = `read-only:${entry}`;
        const reason = "enumerated read-only command";
        return { tier: 0, rule, reason, explicit: true, parts: [{ text, tier: 0, rule, reason }] };
      };
      if (words.length === 1 && EXACT.includes(text)) return allow(text);
      for (const entry of WITH_ARGS) {
        if (entry.every((w, i) => words[i] === w)) return allow(entry.join(" "));
      }
      return refuse("not in the enumerated read-only list");
    },
  };
}

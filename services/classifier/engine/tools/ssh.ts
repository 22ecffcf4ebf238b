// ssh: the remote command it runs, tunnels, and options that run a local command.
import type { TierNumber } from "../../../shared/tier.js";
import type { StdinSource, Word } from "../types.js";
import { joinWords, unwrap } from "../unwrap.js";
import { sshDestination, sshSends } from "./network.js";
import type { Delegate, Unwrap } from "../unwrap.js";

function ssh(args: Word[], stdin: StdinSource | null): Unwrap {
  const at = sshDestination(args);
  const opts = args.slice(0, at).map((w) => w.text);
  const optText = args
    .slice(0, at)
    .map((w) => w.text)
    .join(" ");
  if (/ProxyCommand|LocalCommand|PermitLocalCommand|KnownHostsCommand/i.test(optText))
    return unwrap("delegate:ssh", 2, "ssh option runs a local command", { opaque: [optText] });
  const forwards = opts.some((o) => /^-[LRDWw]/.test(o));
  const rest = args.slice(at + 1);
  if (rest.length === 0) {
    const sends = sshSends(args, at, stdin);
    if (sends?.tier === 3) return unwrap("delegate:ssh", 3, sends.reason);
    return unwrap("delegate:ssh", 2, forwards ? "opens a tunnel" : "opens an interactive remote session");
  }
  const sends = sshSends(args, at, stdin);
  const floor: TierNumber = forwards || lingers(opts) ? 2 : 0;
  const code = { code: [joinWords(rest).text], remote: true };
  if (sends && sends.tier > floor) return unwrap("delegate:ssh", sends.tier, `runs a command on another host; ${sends.reason}`, code);
  return unwrap("delegate:ssh", floor, "runs a command on another host", code);
}

/** ssh's single-letter options that take a value: in a bundle, the rest of the word is that value. */
const SSH_VALUE_LETTERS = "BbcDEeFIiJLlmOoPpQRSWw";

/**
 * `ssh -f HOST CMD` (the client goes to the background) and a master kept open after the command (`-o
 * ControlPersist=…` other than no): a session that outlives the hook's call, whose authenticated channel later
 * commands reuse unseen (review 34; `ssh HOST true` itself stays as `ssh HOST uptime`, a remote read).
 */
function lingers(opts: readonly string[]): boolean {
  for (let i = 0; i < opts.length; i++) {
    const o = opts[i] as string;
    const value = o === "-o" ? (opts[i + 1] ?? "") : o.startsWith("-o") ? o.slice(2) : null;
    if (value !== null && /^\s*ControlPersist\s*[= ]\s*(?!no\s*$)/i.test(value)) return true;
    if (!/^-[^-]/.test(o) || value !== null) continue;
    for (const c of o.slice(1)) {
      if (c === "f") return true;
      if (SSH_VALUE_LETTERS.includes(c)) break;
    }
  }
  return false;
}

export const sshDelegate: Delegate = (_name, args, stdin) => ssh(args, stdin);

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
  const floor: TierNumber = forwards ? 2 : 0;
  const code = { code: [joinWords(rest).text], remote: true };
  if (sends && sends.tier > floor) return unwrap("delegate:ssh", sends.tier, `runs a command on another host; ${sends.reason}`, code);
  return unwrap("delegate:ssh", floor, "runs a command on another host", code);
}

export const sshDelegate: Delegate = (_name, args, stdin) => ssh(args, stdin);

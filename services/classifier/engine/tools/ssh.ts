// ssh: the remote command it runs, tunnels, and options that run a local command.
import type { TierNumber } from "../../../shared/tier.js";
import type { Word } from "../types.js";
import { firstOperand, joinWords, unwrap } from "../unwrap.js";
import type { Delegate, Unwrap } from "../unwrap.js";

const SSH_VALUES = new Set([
  "-p",
  "-i",
  "-l",
  "-o",
  "-F",
  "-J",
  "-L",
  "-R",
  "-D",
  "-W",
  "-b",
  "-c",
  "-E",
  "-e",
  "-m",
  "-O",
  "-Q",
  "-S",
  "-w",
  "-B",
  "-I",
]);

function ssh(args: Word[]): Unwrap {
  const at = firstOperand(args, SSH_VALUES);
  const opts = args.slice(0, at).map((w) => w.text);
  const optText = args
    .slice(0, at)
    .map((w) => w.text)
    .join(" ");
  if (/ProxyCommand|LocalCommand|PermitLocalCommand|KnownHostsCommand/i.test(optText))
    return unwrap("delegate:ssh", 2, "ssh option runs a local command", { opaque: [optText] });
  const forwards = opts.some((o) => /^-[LRDWw]/.test(o));
  const rest = args.slice(at + 1);
  if (rest.length === 0) return unwrap("delegate:ssh", 2, forwards ? "opens a tunnel" : "opens an interactive remote session");
  const floor: TierNumber = forwards ? 2 : 0;
  return unwrap("delegate:ssh", floor, "runs a command on another host", { code: [joinWords(rest).text], remote: true });
}

export const sshDelegate: Delegate = (_name, args) => ssh(args);

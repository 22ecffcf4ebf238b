// Network for the few commands the policy grants it. The executor itself has
// none (PrivateNetwork=yes, or `unshare --net` under agent-sudo start); a
// command whose signed classifier decision says `network` is started through
// a wrapper that puts its envelope in the host's network namespace:
//   nsenter      nsenter --net=HOST_NETNS -- ENVELOPE…
//   systemd-run  a transient service with PrivateNetwork=no (the deployed
//                units forbid setns with RestrictNamespaces=)
//   off          refused: the decision asks for what this host will not give
// When the executor already shares host_netns, the envelope runs as it is.
// The envelope (not the wrapper) switches the user.
import { statSync } from "node:fs";
import type { Config } from "../shared/config.js";
import { ENVELOPE_PROGRAM } from "../shared/envelope/program.js";
import { PERL } from "../shared/envelope/spec.js";
import { CodedError } from "../shared/errors.js";
import type { Launch } from "./run.js";

export interface LaunchSpec {
  cwd: string;
  timeoutS: number;
  env: Record<string, string>;
  /** Names of secret variables in env (their values must not reach systemd-run's argv). */
  secretNames?: readonly string[];
}

function sameNamespace(a: string, b: string): boolean {
  try {
    const x = statSync(a);
    const y = statSync(b);
    return x.ino === y.ino && x.dev === y.dev;
  } catch {
    return false;
  }
}

/** How to start the envelope `words` describe; `network` is the signed classifier flag. */
export function launchFor(words: string[], spec: LaunchSpec, network: boolean, config: Config["executor"]): Launch {
  if (!network || sameNamespace("/proc/self/ns/net", config.host_netns)) return { kind: "envelope", args: words };
  if (config.network === "off")
    throw new CodedError("NETWORK_UNAVAILABLE", "the policy grants this command network, and executor.network is off");
  const program = { file: PERL, args: ["-e", ENVELOPE_PROGRAM, ...words] };
  if (config.network === "nsenter")
    return { kind: "exec", args: ["nsenter", `--net=${config.host_netns}`, "--", program.file, ...program.args] };
  // systemd-run would put every --setenv value in its argv and the unit's
  // Environment= (readable with `systemctl show`): no secrets that way.
  if (spec.secretNames && spec.secretNames.length > 0) {
    throw new CodedError("NETWORK_UNAVAILABLE", "env_secrets cannot reach a network command under executor.network systemd-run");
  }
  const props = ["--property=PrivateNetwork=no", `--property=RuntimeMaxSec=${spec.timeoutS}`, `--working-directory=${spec.cwd}`];
  const env = Object.entries(spec.env).map(([k, v]) => `--setenv=${k}=${v}`);
  // PID 1 expands $VAR and ${VAR} in a unit's command line (its own
  // ExecStart= rules): `$$` keeps every `$` for the program, so what runs is
  // byte for byte what the signers judged.
  const literal = (arg: string) => arg.replaceAll("$", "$$$$");
  return {
    kind: "plain",
    args: [
      "systemd-run",
      "--quiet",
      "--wait",
      "--pipe",
      "--collect",
      "--service-type=exec",
      ...props,
      ...env,
      "--",
      literal(program.file),
      ...program.args.map(literal),
    ],
  };
}

// Network for the few commands the policy grants it. The executor itself has
// none (PrivateNetwork=yes, or `unshare --net` under agent-sudo start); a
// command whose signed classifier decision says `network` is started through
// a wrapper that puts it in the host's network namespace:
//   nsenter      nsenter --net=HOST_NETNS [--setuid --setgid] -- SHELL -c CMD
//   systemd-run  a transient service with PrivateNetwork=no (the deployed
//                units forbid setns with RestrictNamespaces=)
//   off          refused: the decision asks for what this host will not give
// When the executor already shares host_netns (no private network), the
// command runs as usual.
import { statSync } from "node:fs";
import type { Config } from "../shared/config.js";
import { CodedError } from "../shared/errors.js";

export interface Launch {
  /** Program and arguments to spawn (the shell line last). */
  file: string;
  args: string[];
  /** Whether spawn itself should switch uid/gid (false when the wrapper does it). */
  spawnAsUser: boolean;
}

export interface LaunchSpec {
  shell: string;
  command: string;
  cwd: string;
  timeoutS: number;
  env: Record<string, string>;
  /** Set when the command runs as another user than the executor's. */
  user?: { uid: number; gid: number };
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

/** How to start `spec`; `network` is the signed classifier flag. */
export function launchFor(spec: LaunchSpec, network: boolean, config: Config["executor"]): Launch {
  const plain: Launch = { file: spec.shell, args: ["-c", spec.command], spawnAsUser: true };
  if (!network || sameNamespace("/proc/self/ns/net", config.host_netns)) return plain;
  if (config.network === "off") throw new CodedError("NETWORK_UNAVAILABLE", "the policy grants this command network, and executor.network is off");
  if (config.network === "nsenter") {
    const who = spec.user ? [`--setuid=${spec.user.uid}`, `--setgid=${spec.user.gid}`] : [];
    return { file: "nsenter", args: [`--net=${config.host_netns}`, ...who, "--", spec.shell, "-c", spec.command], spawnAsUser: false };
  }
  // systemd-run would put every --setenv value in its argv and the unit's
  // Environment= (readable with `systemctl show`): no secrets that way.
  if (spec.secretNames && spec.secretNames.length > 0) {
    throw new CodedError("NETWORK_UNAVAILABLE", "env_secrets cannot reach a network command under executor.network systemd-run");
  }
  const props = ["--property=PrivateNetwork=no", `--property=RuntimeMaxSec=${spec.timeoutS}`, `--working-directory=${spec.cwd}`];
  const who = spec.user ? [`--uid=${spec.user.uid}`, `--gid=${spec.user.gid}`] : [];
  const env = Object.entries(spec.env).map(([k, v]) => `--setenv=${k}=${v}`);
  // PID 1 expands $VAR and ${VAR} in a unit's command line (its own
  // ExecStart= rules): `$$` keeps every `$` for the shell, so the command
  // that runs is byte for byte the one the signers judged.
  const literal = (arg: string) => arg.replaceAll("$", "$$$$");
  return {
    file: "systemd-run",
    args: ["--quiet", "--wait", "--pipe", "--collect", "--service-type=exec", ...props, ...who, ...env, "--", literal(spec.shell), "-c", literal(spec.command)],
    spawnAsUser: false,
  };
}

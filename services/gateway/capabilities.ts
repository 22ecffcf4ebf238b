// What this stack can do on this host, and what it cannot: one entry per
// capability, from the configuration, the machine and the services' own
// health details. `agent-sudo start` prints one line for every capability
// that is not ok, before `ready`; `/health` reports them all under
// `capabilities`. Nothing degrades silently.
import type { Config } from "../shared/config.js";
import type { ServiceHealth } from "./clients.js";
import { findProgram, pathDirs } from "../shared/programs.js";

export type CapabilityState = "ok" | "degraded" | "off";

export interface Capability {
  state: CapabilityState;
  detail: string;
  /** What to do about it (only when not ok). */
  fix?: string;
}

function onPath(bin: string): boolean {
  return findProgram(bin, pathDirs(["/usr/bin", "/bin"])) !== undefined;
}

function parse(detail: string | undefined): Record<string, unknown> {
  try {
    return JSON.parse(detail ?? "") as Record<string, unknown>;
  } catch {
    return {};
  }
}

export function capabilities(config: Config, health: Record<string, ServiceHealth>): Record<string, Capability> {
  const out: Record<string, Capability> = {};
  const executor = parse(health.executor?.detail);
  const envelope = typeof executor.envelope === "string" ? executor.envelope : undefined;
  out.envelope =
    health.executor?.status !== "up"
      ? { state: "degraded", detail: "the executor is down", fix: "see the executor's log" }
      : envelope === "ok"
        ? { state: "ok", detail: "every command runs in its kernel envelope (read-only, mirror or live)" }
        : {
            state: "degraded",
            detail: `no command can run: ${envelope ?? "unknown"}`,
            fix: "run the stack as root on Linux (x86-64 or arm64) with perl-base",
          };
  const sandbox = health.sandbox?.detail ?? "";
  out.sandbox =
    health.sandbox?.status !== "up"
      ? { state: "degraded", detail: "the sandbox is down: tiers 1–2 are refused", fix: "see the sandbox's log" }
      : /unavailable|driver: none/.test(sandbox)
        ? {
            state: "degraded",
            detail: `${sandbox}: tiers 1–2 are refused`,
            fix: "run as root; the overlay driver needs util-linux and perl-base (or bubblewrap)",
          }
        : { state: "ok", detail: sandbox };
  out.cgroups =
    executor.cgroups === true
      ? { state: "ok", detail: "a cgroup per live command (tier 0 ends with its own pid namespace)" }
      : {
          state: "degraded",
          detail:
            "no writable cgroup v2 hierarchy with cgroup.kill: a command that calls setsid can outlive its request (its pid namespace still dies)",
          fix: "run under systemd (Delegate=yes) or with a writable /sys/fs/cgroup, on Linux ≥ 5.14 (cgroup.kill)",
        };
  const landlock = executor.landlock;
  if (health.executor?.status === "up" && envelope === "ok")
    out.landlock =
      typeof landlock === "number"
        ? { state: "ok", detail: `tier 0 cannot open a host FIFO for writing (Landlock ABI ${landlock})` }
        : {
            state: "degraded",
            detail: `no Landlock (${String(landlock ?? "unknown")}): a tier-0 command can write into a host FIFO outside /tmp, /var/tmp and /run`,
            fix: "Linux ≥ 5.13 with landlock in the kernel's lsm= list",
          };
  out.snapshot =
    config.executor.snapshot === "none"
      ? {
          state: "off",
          detail: "no system snapshot before tier 3 (scoped undo only)",
          fix: 'install timeshift and set executor.snapshot to "timeshift"',
        }
      : { state: "ok", detail: `${config.executor.snapshot} snapshot before every tier-3 command` };
  out.network =
    config.executor.network === "off"
      ? {
          state: "off",
          detail: "commands of rules flagged `network` are refused",
          fix: "set executor.network to nsenter (agent-sudo start) or systemd-run (installed units)",
        }
      : { state: "ok", detail: `rules flagged \`network\` get the host's network through ${config.executor.network}` };
  out.static_checks = onPath("shellcheck")
    ? { state: "ok", detail: "shellcheck validates package-run trials" }
    : {
        state: "degraded",
        detail: "shellcheck is not installed: package-run trials are checked by bash -n (syntax) only",
        fix: "apt-get install shellcheck",
      };
  out.secrets = !config.secrets.enabled
    ? {
        state: "off",
        detail: "env_secrets are refused (secrets.enabled is false)",
        fix: "configure secrets.vault and secrets.allowed, then secrets.enabled",
      }
    : { state: "ok", detail: `env_secrets from Vault at ${config.secrets.vault?.addr ?? "?"}` };
  return out;
}

/** The start-up banner's lines: one per capability that is not ok. */
export function capabilityLines(caps: Record<string, Capability>): string[] {
  return Object.entries(caps)
    .filter(([, c]) => c.state !== "ok")
    .map(([name, c]) => `${c.state === "off" ? "off" : "DEGRADED"}: ${name}: ${c.detail}${c.fix ? ` — ${c.fix}` : ""}`);
}

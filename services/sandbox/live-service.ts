// Live-service commands are not trialled (seed D2): a copy of the disk
// cannot show what restarting a service, a container or the machine does to
// the running system. Such a command is reported `skipped: live-service`,
// which is not ok for tier 2 (it belongs in tier 3: concurrence, snapshot,
// verify) and expected for tier 3.
import { basename, effectiveWords, simpleCommands } from "./words.js";

const SYSTEMCTL_RUNTIME = new Set([
  "start",
  "stop",
  "restart",
  "reload",
  "try-restart",
  "reload-or-restart",
  "try-reload-or-restart",
  "condrestart",
  "force-reload",
  "kill",
  "isolate",
  "reboot",
  "poweroff",
  "halt",
  "kexec",
  "suspend",
  "hibernate",
  "hybrid-sleep",
  "emergency",
  "rescue",
  "daemon-reload",
  "daemon-reexec",
  "default",
  "switch-root",
  "soft-reboot",
  "freeze",
  "thaw",
  "clean",
]);
const SERVICE_ACTIONS = new Set(["start", "stop", "restart", "reload", "force-reload", "try-restart", "condrestart"]);
const CONTAINER_RUNTIME = new Set([
  "restart",
  "stop",
  "start",
  "kill",
  "rm",
  "run",
  "up",
  "down",
  "exec",
  "pause",
  "unpause",
  "update",
  "create",
  "deploy",
  "scale",
]);
const MACHINE = new Set(["reboot", "shutdown", "poweroff", "halt", "telinit", "kexec"]);
const PROCESSES = new Set(["kill", "pkill", "killall"]);
const IP_OBJECTS = new Set(["link", "addr", "address", "route", "rule", "neigh", "neighbour", "tunnel", "xfrm"]);
const IP_CHANGES = new Set(["add", "del", "delete", "set", "change", "replace", "flush", "append"]);

/** Why `words` is a live-service command, or undefined. */
function liveReason(words: string[]): string | undefined {
  const w = effectiveWords(words);
  const name = basename(w[0] ?? "");
  const args = w.slice(1);
  const verbs = args.filter((a) => !a.startsWith("-"));
  const first = verbs[0] ?? "";
  switch (name) {
    case "systemctl":
      if (SYSTEMCTL_RUNTIME.has(first) || args.includes("--now")) return `systemctl ${first}`;
      return undefined;
    case "service":
      return SERVICE_ACTIONS.has(verbs[1] ?? "") ? `service ${verbs[1]}` : undefined;
    case "docker":
    case "podman":
    case "nerdctl": {
      // `docker compose -f x.yml up`: the option's value is not the verb, so look further.
      if (["compose", "container", "service", "stack"].includes(first)) {
        const sub = verbs.slice(1).find((v) => CONTAINER_RUNTIME.has(v));
        return sub ? `${name} ${first} ${sub}` : undefined;
      }
      return CONTAINER_RUNTIME.has(first) ? `${name} ${first}` : undefined;
    }
    case "docker-compose":
    case "podman-compose":
      return CONTAINER_RUNTIME.has(first) ? `${name} ${first}` : undefined;
    case "init":
      return /^[0-6sS]$/.test(first) ? `init ${first}` : undefined;
    case "ip":
      return IP_OBJECTS.has(first) && verbs.slice(1).some((v) => IP_CHANGES.has(v)) ? `ip ${first}` : undefined;
    case "iptables":
    case "ip6tables":
    case "nft":
      return args.some((a) => /^-(L|S|-list|-list-rules)$/.test(a)) || first === "list" ? undefined : name;
    case "nmcli":
    case "netplan":
    case "ifup":
    case "ifdown":
    case "ufw":
      return name;
    default:
      if (MACHINE.has(name) || PROCESSES.has(name)) return name;
      return undefined;
  }
}

/** `undefined` when the command can be trialled; otherwise what makes it live. */
export function liveService(command: string): string | undefined {
  for (const c of simpleCommands(command)) {
    const reason = liveReason(c.words);
    if (reason) return reason;
  }
  return undefined;
}

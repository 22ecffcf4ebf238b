// Live-service programs, the heart of tier 3: services, containers, network,
// databases. Restarting something is live work (tier 3); stopping what the
// host, its logins or its guard depend on, cutting the network, destroying
// volumes or databases, or handing a container the host is tier 4. Primary
// is stricter (seed D3): its security infrastructure and stateful databases
// are not restarted or stopped by the autonomous system at all.
import { type Args, type Handler, parseArgs } from "./args.js";
import type { SimpleCommand, Word } from "./lex.js";
import { type Finding, type JudgeContext, finding, worst } from "./types.js";

/** Units whose stop, disable or mask takes the host, its logins or agent-sudo down. */
const VITAL_UNIT =
  /^(ssh|sshd|dbus|dbus-broker|systemd-.*|NetworkManager|networking|network|apparmor|auditd|getty@.*|serial-getty@.*|agent-sudo.*|.*\.target|-\.mount|.*\.socket)$/;
/** Units that on primary are never stopped or restarted autonomously (D3). */
const PRIMARY_GUARDED = /^(vault|postgresql.*|authelia|secrets-proxy|docker|containerd|agent-sudo.*)$/;
/** Restarting these is itself destructive: vault comes back sealed, dbus drags everything with it. */
const NO_RESTART = /^(vault|dbus|dbus-broker|systemd-logind|agent-sudo.*)$/;
/** Restarting these drops the network. */
const NETWORK_UNIT = /^(NetworkManager|networking|network|systemd-networkd)$/;

const READ_VERBS = new Set([
  "status",
  "show",
  "cat",
  "is-active",
  "is-enabled",
  "is-failed",
  "is-system-running",
  "list-units",
  "list-unit-files",
  "list-sockets",
  "list-timers",
  "list-jobs",
  "list-dependencies",
  "list-machines",
  "show-environment",
  "help",
  "get-default",
]);
const POWER_VERBS = new Set([
  "poweroff",
  "reboot",
  "halt",
  "kexec",
  "rescue",
  "emergency",
  "suspend",
  "hibernate",
  "hybrid-sleep",
  "suspend-then-hibernate",
  "soft-reboot",
  "isolate",
  "default",
  "switch-root",
  "exit",
]);
const STOP_VERBS = new Set(["stop", "disable", "mask", "kill", "freeze", "clean"]);

function unitName(text: string): string {
  return text.replace(/\.service$/, "");
}

function judgeUnits(verb: string, units: Word[], ctx: JudgeContext): Finding {
  if (READ_VERBS.has(verb) || verb === "") return finding(0, `systemctl ${verb || "list"}`);
  if (POWER_VERBS.has(verb)) return finding(4, `systemctl ${verb} changes the power state or boot target`);
  if (["daemon-reload", "daemon-reexec", "reset-failed", "set-environment", "unset-environment"].includes(verb))
    return finding(3, `systemctl ${verb}`);
  let f = finding(3, `systemctl ${verb} ${units.map((u) => u.text).join(" ")}`.trim());
  for (const u of units) {
    const name = unitName(u.text);
    if (u.dynamic || u.glob || /[*?[]/.test(u.text))
      return finding(4, `systemctl ${verb} on units only known at run time or by pattern (${u.text})`);
    if (STOP_VERBS.has(verb) && VITAL_UNIT.test(name))
      f = worst(f, finding(4, `${verb} of ${name} takes the host, its logins or agent-sudo down`));
    if (ctx.host === "primary" && PRIMARY_GUARDED.test(name)) f = worst(f, finding(4, `${verb} of ${name} on primary is a person's act`));
    if (/restart|reload|try-restart/.test(verb) && NO_RESTART.test(name))
      f = worst(
        f,
        finding(4, `restarting ${name} is destructive (vault comes back sealed; dbus, logind and agent-sudo take others with them)`),
      );
    if (/restart/.test(verb) && NETWORK_UNIT.test(name) && ctx.host === "primary")
      f = worst(f, finding(4, `restarting ${name} on primary drops the network`));
  }
  return f;
}

const systemctl: Handler = (a, ctx) => judgeUnits(a.sub, a.operands.slice(1), ctx);
const service: Handler = (a, ctx) => {
  const [unit, verb] = a.operands;
  if (!unit) return finding(0, "service --status-all");
  return judgeUnits(verb?.text ?? "status", [unit], ctx);
};

// Containers.
const DOCKER_READ = new Set([
  "ps",
  "inspect",
  "logs",
  "images",
  "stats",
  "top",
  "version",
  "info",
  "port",
  "diff",
  "history",
  "events",
  "search",
  "ls",
  "df",
  "config",
  "context",
]);
const PRIMARY_GUARDED_CONTAINER = /vault|postgres|authelia|secrets-proxy/;

/** A container handed the host: privileged, host namespaces, the root fs or the docker socket. */
function hostEscape(words: Word[]): string | undefined {
  for (let i = 0; i < words.length; i++) {
    const t = words[i]?.text ?? "";
    const next = words[i + 1]?.text ?? "";
    if (t === "--privileged" || /^--(pid|ipc|userns|uts)=host$/.test(t)) return t;
    if ((t === "--pid" || t === "--userns") && next === "host") return `${t} host`;
    if (
      /^--cap-add=?(ALL|SYS_ADMIN|SYS_MODULE|SYS_RAWIO|SYS_PTRACE|DAC_READ_SEARCH)$/i.test(t) ||
      (t === "--cap-add" && /^(ALL|SYS_ADMIN|SYS_MODULE|SYS_RAWIO|SYS_PTRACE|DAC_READ_SEARCH)$/i.test(next))
    )
      return `capability ${t} ${next}`;
    if (t === "--device" || t.startsWith("--device=")) return "a host device";
    const mount = t === "-v" || t === "--volume" || t === "--mount" ? next : /^(-v|--volume=|--mount=)(.*)$/.exec(t)?.[2];
    if (mount !== undefined) {
      const host = /(?:^|,)(?:source|src)=([^,]+)/.exec(mount)?.[1] ?? mount.split(":")[0] ?? "";
      if (/^\/+$|^\/(etc|boot|root|usr|var\/run\/docker\.sock|run\/docker\.sock|var\/lib\/docker|dev|proc|sys)(\/|$)/.test(host))
        return `host path ${host}`;
    }
  }
  return undefined;
}

function compose(words: Word[], ctx: JudgeContext): Finding {
  const a = parseArgs(words, ["-f", "--file", "-p", "--project-name", "--project-directory", "--env-file", "--profile"]);
  const verb = a.sub;
  if (DOCKER_READ.has(verb) || verb === "") return finding(0, `compose ${verb}`);
  const rest = words.slice(words.findIndex((w) => w.text === verb) + 1);
  if (verb === "down" && rest.some((w) => w.text === "-v" || w.text === "--volumes"))
    return finding(4, "compose down --volumes destroys the project's data volumes");
  const hostEscaped = hostEscape(rest);
  if (hostEscaped && (verb === "run" || verb === "exec")) return finding(4, `compose ${verb} hands a container ${hostEscaped}`);
  if (ctx.host === "primary" && ["down", "stop", "kill", "rm"].includes(verb) && rest.some((w) => PRIMARY_GUARDED_CONTAINER.test(w.text)))
    return finding(4, `compose ${verb} of a guarded service on primary`);
  return finding(3, `compose ${verb}`);
}

const docker: Handler = (a, ctx) => {
  const words = a.words;
  const verbAt = words.findIndex((w) => !w.text.startsWith("-"));
  const verb = words[verbAt]?.text ?? "";
  const rest = words.slice(verbAt + 1);
  if (verb === "compose") return compose(rest, ctx);
  const object = [
    "container",
    "image",
    "volume",
    "network",
    "system",
    "builder",
    "buildx",
    "plugin",
    "node",
    "service",
    "stack",
    "secret",
  ].includes(verb)
    ? verb
    : "";
  const action = object ? (rest.find((w) => !w.text.startsWith("-"))?.text ?? "") : verb;
  const targets = (object ? rest.slice(rest.findIndex((w) => w.text === action) + 1) : rest).filter((w) => !w.text.startsWith("-"));
  if (DOCKER_READ.has(action) || (object && action === "")) return finding(0, `docker ${object} ${action}`.replace(/\s+/g, " "));
  if (object === "volume" && ["rm", "remove", "prune"].includes(action)) return finding(4, "destroys docker volumes (stateful data)");
  if (object === "system" && action === "prune" && rest.some((w) => w.text === "--volumes"))
    return finding(4, "prunes docker volumes (stateful data)");
  if (["run", "create", "exec"].includes(action)) {
    const hostEscaped = hostEscape(rest);
    if (hostEscaped) return finding(4, `docker ${action} hands a container ${hostEscaped}`);
  }
  if (["rm", "stop", "kill", "restart", "pause"].includes(action)) {
    if (targets.some((w) => w.dynamic)) return finding(4, `docker ${action} on containers only known at run time (all of them?)`);
    if (ctx.host === "primary" && targets.some((w) => PRIMARY_GUARDED_CONTAINER.test(w.text)))
      return finding(4, `docker ${action} of a guarded container on primary`);
    if (action === "restart" && targets.some((w) => /vault/.test(w.text))) return finding(4, "restarting vault leaves it sealed");
  }
  return finding(3, `docker ${object} ${action}`.replace(/\s+/g, " ").trim());
};

// Network: what would cut the host off (and its person from it).
const ip: Handler = (a) => {
  const line = a.words.map((w) => w.text).join(" ");
  if (a.words.some((w) => w.dynamic)) return finding(4, "changes the network with values only known at run time");
  if (/\bset\b.*\bdown\b/.test(line)) return finding(4, "takes a network link down");
  if (/\bflush\b/.test(line)) return finding(4, "flushes addresses, routes or neighbours");
  if (/\bdel(ete)?\s+default\b/.test(line)) return finding(4, "removes the default route");
  if (
    /^(-\S+\s+)*\S+(\s+(show|list|ls|get|lst|sh))?(\s+\S+)*$/.test(line) &&
    !/\b(add|del|delete|set|change|replace|append|flush|save|restore)\b/.test(line)
  )
    return finding(0, "ip query");
  return finding(3, "changes the network configuration");
};

const firewall: Handler = (a) => {
  const line = a.words.map((w) => w.text).join(" ");
  if (
    /(^|\s)(-L|--list|-S|--list-rules|list|status|show)(\s|$)/.test(line) &&
    !/(^|\s)(-F|-X|-P|--flush|flush|reset|disable|delete)(\s|$)/.test(line)
  )
    return finding(0, "firewall query");
  if (/(^|\s)(-F|--flush|-X|--delete-chain)(\s|$)|flush\s+ruleset|^(reset|disable)\b|delete\s+table/.test(line))
    return finding(4, "flushes or disables the firewall");
  if (/(^|\s)(-P|--policy)\s+\S+\s+DROP\b|default\s+deny\s+(incoming|outgoing)/i.test(line))
    return finding(4, "sets a drop-everything policy (locks the host off the network)");
  return finding(3, "changes firewall rules");
};

const nmcli: Handler = (a) => {
  const line = a.words.map((w) => w.text).join(" ");
  if (
    /\bnetworking\s+off\b|\bradio\s+\S+\s+off\b|\bc(on(nection)?)?\s+(down|delete|del)\b|\bd(ev(ice)?)?\s+(disconnect|delete|down)\b/.test(
      line,
    )
  )
    return finding(4, "takes the host's network down");
  if (/\b(show|status|list|monitor)\b/.test(line) || a.words.length === 0) return finding(0, "nmcli query");
  return finding(3, "changes network connections");
};

// Databases: the SQL is judged when it is visible.
const DESTRUCTIVE_SQL =
  /\b(drop\s+(database|schema|table|role|user|owned|extension)|truncate|alter\s+system|flushall|flushdb|config\s+set|shutdown|copy\s+\S+\s+(from|to)\s+program)\b/i;

/** The first statement that destroys data: DROP/TRUNCATE, or DELETE/UPDATE without WHERE. */
export function destructiveSql(sql: string): string | undefined {
  const m = DESTRUCTIVE_SQL.exec(sql);
  if (m) return m[0];
  for (const stmt of sql.split(";")) {
    if (/^\s*(delete\s+from|update)\b/i.test(stmt) && !/\bwhere\b/i.test(stmt)) return stmt.trim().slice(0, 60);
  }
  return undefined;
}

function sqlOf(a: Args, cmd: SimpleCommand, flags: string[]): string | undefined {
  const parts = flags.flatMap((f) => a.values.get(f) ?? []);
  if (cmd.stdin !== undefined) parts.push(cmd.stdin);
  for (const r of cmd.redirects) if (r.op === "<<<" && r.target) parts.push(r.target.text);
  return parts.length > 0 ? parts.join("\n") : undefined;
}

const database =
  (flags: string[]): Handler =>
  (a, _ctx, cmd) => {
    const sql = sqlOf(a, cmd, flags);
    if (sql !== undefined) {
      const bad = destructiveSql(sql);
      if (bad) return finding(4, `destroys data: ${bad}`);
      return finding(3, "runs SQL on a live database");
    }
    return finding(3, "runs unseen statements on a live database");
  };

const redis: Handler = (a, _ctx, cmd) => {
  const text = [...a.operands.map((w) => w.text), cmd.stdin ?? ""].join(" ");
  if (/\b(flushall|flushdb|shutdown|config\s+set|debug|slaveof|replicaof|module\s+load)\b/i.test(text))
    return finding(4, "destroys or reconfigures the redis data set");
  return finding(3, "runs redis commands");
};

export const LIVE_PROGRAMS: Record<string, Handler> = {
  systemctl,
  service,
  docker,
  podman: docker,
  "docker-compose": (a, ctx) => compose(a.words, ctx),
  ip,
  iptables: firewall,
  ip6tables: firewall,
  "iptables-legacy": firewall,
  "iptables-nft": firewall,
  nft: firewall,
  ufw: firewall,
  "firewall-cmd": firewall,
  nmcli,
  ifdown: () => finding(4, "takes a network interface down"),
  ifup: () => finding(3, "brings a network interface up"),
  netplan: (a) => (a.sub === "get" ? finding(0, "netplan get") : finding(3, `netplan ${a.sub}`)),
  psql: database(["-c", "--command"]),
  mysql: database(["-e", "--execute"]),
  mariadb: database(["-e", "--execute"]),
  sqlite3: (a, _ctx, cmd) => {
    const sql = [...a.operands.slice(1).map((w) => w.text), cmd.stdin ?? ""].join("\n");
    const bad = destructiveSql(sql);
    return bad ? finding(4, `destroys data: ${bad}`) : finding(2, "sqlite3");
  },
  mongosh: database(["--eval"]),
  mongo: database(["--eval"]),
  "redis-cli": redis,
  dropdb: () => finding(4, "drops a database"),
  dropuser: () => finding(4, "drops a database role"),
  pg_dropcluster: () => finding(4, "drops a PostgreSQL cluster"),
  pg_restore: (a) =>
    a.has("-c", "--clean") ? finding(4, "pg_restore --clean drops objects first") : finding(3, "restores into a live database"),
  mysqladmin: (a) =>
    a.words.some((w) => /^(drop|shutdown)$/i.test(w.text)) ? finding(4, "drops a database or stops the server") : finding(3, "mysqladmin"),
  hostnamectl: (a) => (a.sub.startsWith("set-") ? finding(3, "renames the host") : finding(0, "hostnamectl")),
  timedatectl: (a) => (a.sub.startsWith("set-") ? finding(3, "changes the clock") : finding(0, "timedatectl")),
};

export const LIVE_VALUED: Record<string, string[]> = {
  psql: ["-c", "--command", "-d", "--dbname", "-U", "--username", "-h", "--host", "-p", "--port", "-f", "--file", "-v", "--set"],
  mysql: ["-e", "--execute", "-u", "--user", "-h", "--host", "-P", "--port", "-D", "--database"],
  mariadb: ["-e", "--execute", "-u", "--user", "-h", "--host", "-P", "--port", "-D", "--database"],
  mongosh: ["--eval", "--host", "--port", "-u", "--username"],
  mongo: ["--eval", "--host", "--port", "-u", "--username"],
  "redis-cli": ["-h", "-p", "-a", "-n", "-u"],
  systemctl: [
    "-H",
    "--host",
    "-M",
    "--machine",
    "-t",
    "--type",
    "--state",
    "-p",
    "--property",
    "-s",
    "--signal",
    "-n",
    "--lines",
    "-o",
    "--output",
    "--kill-whom",
  ],
  nmcli: ["-f", "--fields", "-g", "--get-values", "-w", "--wait"],
};

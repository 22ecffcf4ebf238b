// Configuration: one optional JSON file in the state dir, overridden by a few
// environment variables, validated with zod. Unknown keys are an error.
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { DEFAULT_SECRET_MASKS, DEFAULT_STATE_DIRS } from "./envelope/masks.js";
import { VaultSettingsSchema } from "./vault-settings.js";

export const SERVICES = ["executor", "classifier", "concurrence", "sandbox", "breaker", "gateway"] as const;
export type ServiceName = (typeof SERVICES)[number];
export type UnprivilegedService = Exclude<ServiceName, "executor">;

export const HOST_IDS = ["primary", "server-01"] as const;
export type HostId = (typeof HOST_IDS)[number];

const KiB = 1024;
const MiB = 1024 * KiB;

/**
 * Secrets by reference on /exec (env_secrets): off unless enabled, and only
 * references under `allowed` (e.g. "vault://secret/agent-sudo/").
 */
export const SecretsSettingsSchema = z
  .object({
    enabled: z.boolean().default(false),
    allowed: z
      .array(z.string().regex(/^vault:\/\/[A-Za-z0-9._/-]+$/))
      .max(64)
      .default([]),
    vault: VaultSettingsSchema.optional(),
  })
  .strict()
  .refine((v) => !v.enabled || v.vault !== undefined, { message: "secrets.enabled needs secrets.vault" });

const ConfigFile = z
  .object({
    host_id: z.enum(HOST_IDS).default("primary"),
    http: z
      .object({
        bind: z.string().min(1).default("127.0.0.1"),
        port: z.number().int().min(1).max(65535).default(8084),
        tls_cert: z.string().min(1).optional(),
        tls_key: z.string().min(1).optional(),
        // Reading a request: its headers within headers_timeout_s of the
        // connection (or of the previous answer), its body within
        // body_timeout_s more. Not the command's time: that is /exec's
        // `timeout`, and the answer may take as long as it needs.
        headers_timeout_s: z.number().int().min(1).max(300).default(10),
        body_timeout_s: z.number().int().min(1).max(600).default(20),
        // Open TCP connections: in total (the reserve included), per peer
        // address, and the last slots that only serve /health. The total is
        // lowered to fit the process's descriptor limit (RLIMIT_NOFILE).
        max_connections: z.number().int().min(8).max(65536).default(1024),
        max_connections_per_peer: z.number().int().min(1).max(65536).default(256),
        reserve_connections: z.number().int().min(1).max(1024).default(16),
      })
      .strict()
      .refine((h) => (h.tls_cert === undefined) === (h.tls_key === undefined), {
        message: "tls_cert and tls_key go together",
      })
      .refine((h) => h.reserve_connections < h.max_connections, { message: "reserve_connections must be below max_connections" })
      .default({
        bind: "127.0.0.1",
        port: 8084,
        headers_timeout_s: 10,
        body_timeout_s: 20,
        max_connections: 1024,
        max_connections_per_peer: 256,
        reserve_connections: 16,
      }),
    users: z
      .object({
        gateway: z.string().min(1).default("agent-sudo-gw"),
        classifier: z.string().min(1).default("agent-sudo-cls"),
        concurrence: z.string().min(1).default("agent-sudo-con"),
        sandbox: z.string().min(1).default("agent-sudo-sbx"),
        breaker: z.string().min(1).default("agent-sudo-brk"),
      })
      .strict()
      .default({
        gateway: "agent-sudo-gw",
        classifier: "agent-sudo-cls",
        concurrence: "agent-sudo-con",
        sandbox: "agent-sudo-sbx",
        breaker: "agent-sudo-brk",
      }),
    executor: z
      .object({
        shell: z.string().startsWith("/").default("/bin/bash"),
        max_concurrent: z.number().int().min(1).max(64).default(4),
        queue: z.number().int().min(0).max(256).default(16),
        stdout_cap_bytes: z
          .number()
          .int()
          .min(1)
          .max(16 * MiB)
          .default(MiB),
        stderr_cap_bytes: z
          .number()
          .int()
          .min(1)
          .max(16 * MiB)
          .default(256 * KiB),
        // Under `agent-sudo start` as root: run the executor in its own
        // network namespace (only a down loopback), as systemd's
        // PrivateNetwork=yes does in deployment.
        private_network: z.boolean().default(true),
        // Tier 3: take a system snapshot before running (never restored by the
        // system). A configured snapshot that fails refuses the command.
        snapshot: z.enum(["none", "timeshift"]).default("none"),
        // How a command whose rules are all flagged `network` gets the host's
        // network: `nsenter` into host_netns (agent-sudo start), `systemd-run`
        // (a transient service with PrivateNetwork=no: the deployed units,
        // whose RestrictNamespaces= forbids setns), `off` (such commands are
        // refused). Nothing else the executor runs has network.
        network: z.enum(["nsenter", "systemd-run", "off"]).default("nsenter"),
        host_netns: z.string().startsWith("/").default("/proc/1/ns/net"),
      })
      .strict()
      .default({
        shell: "/bin/bash",
        max_concurrent: 4,
        queue: 16,
        stdout_cap_bytes: MiB,
        stderr_cap_bytes: 256 * KiB,
        private_network: true,
        snapshot: "none",
        network: "nsenter",
        host_netns: "/proc/1/ns/net",
      }),
    hook: z
      .object({
        mode: z.enum(["conservative", "routed"]).default("conservative"),
        // Group that may use hook.sock (0660); unset: only the gateway's user and root.
        socket_group: z.string().min(1).optional(),
        // Also serve /v1/hook on the TCP port, behind a Bearer token.
        tcp: z.boolean().default(false),
        // Open connections on hook.sock at most (the last 8 serve only /health).
        max_connections: z.number().int().min(16).max(65536).default(256),
      })
      .strict()
      .default({ mode: "conservative", tcp: false, max_connections: 256 }),
    audit: z
      .object({
        // The embedded PostgreSQL's port when DATABASE_URL is not set; 0 picks a free one.
        embedded_port: z.number().int().min(0).max(65535).default(0),
        // The spool's segment size: a segment is freed once all of it is
        // shipped, so a small one gives shipped records' space back sooner.
        spool_segment_bytes: z
          .number()
          .int()
          .min(4 * KiB)
          .max(64 * MiB)
          .default(MiB),
        // Room the spool sets aside for refusals and outcomes on a full disk
        // (at most an eighth of its file system; 0: none).
        spool_reserve_bytes: z
          .number()
          .int()
          .min(0)
          .max(256 * MiB)
          .default(MiB),
      })
      .strict()
      .default({ embedded_port: 0, spool_segment_bytes: MiB, spool_reserve_bytes: MiB }),
    policy: z
      .object({
        // true: a service refuses to start with a policy whose signature is
        // missing or does not verify; false: it starts and warns loudly.
        verify_enforce: z.boolean().default(false),
      })
      .strict()
      .default({ verify_enforce: false }),
    secrets: SecretsSettingsSchema.default({ enabled: false, allowed: [] }),
    // What no command sees (ARCHITECTURE "Envelopes"): besides this stack's
    // own state dir, other agent-sudo state dirs on the host and the secret
    // paths (globs: `*` within one segment).
    envelope: z
      .object({
        state_dirs: z.array(z.string().startsWith("/").max(512)).max(64).default(DEFAULT_STATE_DIRS),
        masks: z.array(z.string().startsWith("/").max(512)).max(256).default(DEFAULT_SECRET_MASKS),
      })
      .strict()
      .default({ state_dirs: DEFAULT_STATE_DIRS, masks: DEFAULT_SECRET_MASKS }),
    // The operator console (services/gateway/console): off unless enabled;
    // its own listener, on a loopback address only (reach it from elsewhere
    // through an SSH tunnel), its own admin tokens (console-tokens.json).
    // public_url: the address a person's browser uses (a tunnel's), for
    // notification links and the Host/Origin checks; default http://BIND:PORT.
    console: z
      .object({
        enabled: z.boolean().default(false),
        bind: z.enum(["127.0.0.1", "::1", "localhost"]).default("127.0.0.1"),
        port: z.number().int().min(1).max(65535).default(8085),
        public_url: z.url({ protocol: /^https?$/ }).optional(),
        session_minutes: z
          .number()
          .int()
          .min(5)
          .max(24 * 60)
          .default(480),
      })
      .strict()
      .default({ enabled: false, bind: "127.0.0.1", port: 8085, session_minutes: 480 }),
    decision_ttl_s: z.number().int().min(1).max(300).default(30),
    policies_dir: z.string().min(1).optional(),
    // Where the proposals store (proposals.pending.json) lives: absolute, or
    // relative to the agent-sudo home. Unset: beside the policies when
    // policies_dir is set, else (the package's own policies, as `npm start`
    // runs them from a checkout) state/proposals — never into the code.
    // `agent-sudo install` sets "state/proposals", the one directory the
    // unprivileged rules-learn unit may write (the policies stay root's).
    proposals_dir: z.string().min(1).optional(),
  })
  .strict();

export type ConfigFileShape = z.infer<typeof ConfigFile>;

export interface Config extends ConfigFileShape {
  home: string;
  runDir: string;
  keysDir: string;
  stateDir: string;
  logsDir: string;
  tokensFile: string;
  /** Hashed tokens that may read GET /metrics (never /exec's). */
  metricsTokensFile: string;
  /** Hashed admin tokens of the operator console (never /exec's). */
  consoleTokensFile: string;
  policiesDir: string;
  proposalsDir: string;
  repoRoot: string;
}

/** The repository (or installed package) root, from source or from dist/. */
function findRoot(from: string): string {
  for (let dir = from; dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json")) && existsSync(join(dir, "policies"))) return dir;
  }
  return resolve(from, "..", "..", "..");
}

export const repoRoot = findRoot(dirname(fileURLToPath(import.meta.url)));

export function defaultHome(): string {
  if (process.env.AGENT_SUDO_HOME) return resolve(process.env.AGENT_SUDO_HOME);
  // Services running under their own users must reach the state dir; /root
  // is 0700, so root's default lives where system daemons keep state.
  return process.getuid?.() === 0 ? "/var/lib/agent-sudo" : join(homedir(), ".agent-sudo");
}

export class ConfigError extends Error {}

function envOverrides(raw: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...raw };
  const http = { ...((raw.http as Record<string, unknown> | undefined) ?? {}) };
  const executor = { ...((raw.executor as Record<string, unknown> | undefined) ?? {}) };
  const env = process.env;
  if (env.AGENT_SUDO_PORT !== undefined) {
    const port = Number(env.AGENT_SUDO_PORT);
    if (!Number.isInteger(port)) throw new ConfigError(`AGENT_SUDO_PORT is not a port number: ${env.AGENT_SUDO_PORT}`);
    http.port = port;
  }
  if (env.AGENT_SUDO_BIND !== undefined) http.bind = env.AGENT_SUDO_BIND;
  if (env.AGENT_SUDO_HOST_ID !== undefined) out.host_id = env.AGENT_SUDO_HOST_ID;
  if (env.AGENT_SUDO_SHELL !== undefined) executor.shell = env.AGENT_SUDO_SHELL;
  if (env.AGENT_SUDO_SNAPSHOT !== undefined) executor.snapshot = env.AGENT_SUDO_SNAPSHOT;
  if (env.AGENT_SUDO_NETWORK !== undefined) executor.network = env.AGENT_SUDO_NETWORK;
  if (env.AGENT_SUDO_HOST_NETNS !== undefined) executor.host_netns = env.AGENT_SUDO_HOST_NETNS;
  if (env.AGENT_SUDO_POLICIES !== undefined) out.policies_dir = env.AGENT_SUDO_POLICIES;
  if (env.AGENT_SUDO_POLICY_ENFORCE !== undefined) {
    out.policy = {
      ...((raw.policy as Record<string, unknown> | undefined) ?? {}),
      verify_enforce: env.AGENT_SUDO_POLICY_ENFORCE === "1" || env.AGENT_SUDO_POLICY_ENFORCE === "true",
    };
  }
  if (env.AGENT_SUDO_HOOK_MODE !== undefined) {
    out.hook = { ...((raw.hook as Record<string, unknown> | undefined) ?? {}), mode: env.AGENT_SUDO_HOOK_MODE };
  }
  out.http = http;
  out.executor = executor;
  return out;
}

/** Neither proposals_dir nor policies_dir set: the package's own policies, whose proposals go to state/proposals. */
export function defaultProposalsStore(file: Pick<ConfigFileShape, "proposals_dir" | "policies_dir">): boolean {
  return file.proposals_dir === undefined && file.policies_dir === undefined;
}

/** config's proposals_dir; unset, beside configured policies, or under the state dir for the package's own. */
function proposalsDirOf(home: string, file: ConfigFileShape, policiesDir: string): string {
  if (file.proposals_dir !== undefined) return resolve(home, file.proposals_dir);
  return defaultProposalsStore(file) ? join(home, "state", "proposals") : policiesDir;
}

export function loadConfig(home: string = defaultHome()): Config {
  const file = join(home, "config.json");
  let raw: Record<string, unknown> = {};
  if (existsSync(file)) {
    try {
      raw = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
    } catch (err) {
      throw new ConfigError(`${file}: not valid JSON (${(err as Error).message})`);
    }
  }
  const parsed = ConfigFile.safeParse(envOverrides(raw));
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ");
    throw new ConfigError(`${file}: ${issues}`);
  }
  const policiesDir = resolve(parsed.data.policies_dir ?? join(repoRoot, "policies"));
  return {
    ...parsed.data,
    home,
    runDir: join(home, "run"),
    keysDir: join(home, "keys"),
    stateDir: join(home, "state"),
    logsDir: join(home, "logs"),
    tokensFile: join(home, "tokens.json"),
    metricsTokensFile: join(home, "metrics-tokens.json"),
    consoleTokensFile: join(home, "console-tokens.json"),
    policiesDir,
    proposalsDir: proposalsDirOf(home, parsed.data, policiesDir),
    repoRoot,
  };
}

export function hookSocketPath(config: Config): string {
  return join(config.runDir, "hook.sock");
}

export function socketPath(config: Config, service: ServiceName): string {
  return join(config.runDir, `${service}.sock`);
}

/** The breaker's administrative sockets (services/breaker/admin.ts): Trip and Status; Rearm (root only). */
export function breakerAdminSocketPath(config: Pick<Config, "runDir">): string {
  return join(config.runDir, "breaker-admin.sock");
}

export function breakerRearmSocketPath(config: Pick<Config, "runDir">): string {
  return join(config.runDir, "breaker-rearm.sock");
}

// `agent-sudo install`, the host's state and deployment files: the service
// users, the state dir with its keys and modes (prepareHome, cli/home.ts),
// the host's config.json and tokens.json, the learner's proposals store,
// and the systemd units and AppArmor profiles as shipped, their prefix
// rewritten when --prefix is not the default.
import { existsSync, readdirSync, readFileSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { loadConfig, SERVICES, type UnprivilegedService } from "../services/shared/config.js";
import { privateKeyPath, publicKeyPath, SIGNERS } from "../services/shared/keys.js";
import { lookupUser } from "../services/shared/privilege.js";
import { PENDING_FILE } from "../services/shared/proposals.js";
import { ensureUser, prepareHome } from "./home.js";
import {
  type Actions,
  at,
  DEFAULT_PREFIX,
  fmt,
  hasMeta,
  HTTP,
  type Options,
  ROOT,
  type Say,
  setMeta,
  STATE_DIR,
  writeAtomic,
} from "./install-plan.js";

/**
 * agent-sudo-rules-learn.service (the hourly `rules learn`): its user (the
 * unit's User=, created here), the proposals store it writes (config's
 * proposals_dir, relative to the state dir; the unit's ReadWritePaths=), and
 * the environment file it shares with the gateway (DATABASE_URL, ntfy).
 */
export const LEARNER = { user: "agent-sudo-lrn", proposals: "state/proposals", unit: "agent-sudo-rules-learn.service" } as const;

/** Directories of the state dir a service writes after its drop (unit ReadWritePaths=). */
const OWN_STATE: Partial<Record<UnprivilegedService | "executor", string>> = {
  executor: "executor",
  gateway: "gateway",
  breaker: "breaker",
  sandbox: "sandbox",
};

export function deploymentFiles(src: string, dir: "systemd" | "apparmor"): string[] {
  const names = readdirSync(join(src, dir)).filter((n) =>
    dir === "systemd" ? /^agent-sudo.*\.(service|target|timer)$/.test(n) : /^agent-sudo-[a-z]+(-[a-z]+)*$/.test(n),
  );
  return names.sort();
}

export function rewritePrefix(text: string, prefix: string): string {
  return prefix === DEFAULT_PREFIX ? text : text.split(DEFAULT_PREFIX).join(prefix);
}

export function installState(o: Options, act: Actions, _say: Say): void {
  const home = at(o, STATE_DIR);
  const config = loadConfig(home);
  act.parents(home);
  // Predict what prepareHome (cli/home.ts) will do, so a dry run can say it.
  for (const s of SERVICES) {
    if (s === "executor") continue;
    const user = config.users[s];
    act.step("create", `system user ${user} (useradd --system, nologin)`, !lookupUser(user), () => {});
  }
  act.step("create", `system user ${LEARNER.user} (useradd --system, nologin; ${LEARNER.unit})`, !lookupUser(LEARNER.user), () =>
    ensureUser(LEARNER.user, () => {}),
  );
  const dirs: Array<[string, number]> = [
    [home, 0o711],
    [config.runDir, 0o711],
    [config.stateDir, 0o711],
    [config.logsDir, 0o700],
    [config.keysDir, 0o755],
  ];
  for (const [d, mode] of dirs)
    act.step(existsSync(d) ? "fix" : "mkdir", `${d}/ (${fmt(mode, ROOT)})`, !existsSync(d) || !hasMeta(d, mode, ROOT), () => {});
  for (const signer of SIGNERS) {
    const missing = !existsSync(privateKeyPath(config.keysDir, signer)) || !existsSync(publicKeyPath(config.keysDir, signer));
    act.step(
      "generate",
      `ed25519 signing key ${signer} (keys/${signer}.key 0600 root:root, keys/${signer}.pub 0644 root:root)`,
      missing,
      () => {},
    );
  }
  // The real work: prepareHome (cli/home.ts) creates the users, dirs and keys (ensureKeys).
  if (!act.dryRun) prepareHome(config, () => {});
  for (const [service, name] of Object.entries(OWN_STATE)) {
    const owner = service === "executor" ? ROOT : { user: config.users[service as UnprivilegedService] };
    act.dir(join(config.stateDir, name), 0o700, owner);
  }
  installProposalsStore(o, act, home);
  const cfgPath = join(home, "config.json");
  let body: Record<string, unknown> = { host_id: o.host, http: HTTP };
  if (existsSync(cfgPath)) {
    const current = JSON.parse(readFileSync(cfgPath, "utf8")) as Record<string, unknown>;
    if (current.host_id !== undefined && current.host_id !== o.host) {
      throw new Error(
        `${cfgPath} says host_id ${JSON.stringify(current.host_id)}; refusing to turn it into ${o.host} (edit it by hand if this is intended)`,
      );
    }
    body = { ...current, host_id: o.host };
  }
  // Under systemd the executor's unit forbids setns (RestrictNamespaces=):
  // commands whose rules grant network run as transient units (network.ts).
  body.executor = { network: "systemd-run", ...((body.executor as Record<string, unknown> | undefined) ?? {}) };
  // The proposals store lives where the unprivileged learner may write it, not beside the root-owned policies.
  body.proposals_dir ??= LEARNER.proposals;
  const text = `${JSON.stringify(body, null, 2)}\n`;
  act.file(cfgPath, text, 0o644, ROOT, `: ${JSON.stringify(body)}`);
  if (!act.dryRun) loadConfig(home); // the services' own validation: a bad file stops here, not at start
  const tokens = join(home, "tokens.json");
  if (existsSync(tokens)) act.file(tokens, readFileSync(tokens), 0o600, ROOT, " (callers kept)");
  else act.file(tokens, `${JSON.stringify({ callers: [] }, null, 2)}\n`, 0o600, ROOT, " (no callers yet)");
}

/**
 * state/proposals (0700, the learner's): the one directory its unit may
 * write. A store an earlier install left beside the installed policies (root
 * ran `rules learn` there) moves in, so rejections and activations are kept.
 */
function installProposalsStore(o: Options, act: Actions, home: string): void {
  const dir = join(home, LEARNER.proposals);
  act.dir(dir, 0o700, { user: LEARNER.user });
  const old = join(at(o, o.prefix), "policies", PENDING_FILE);
  const store = join(dir, PENDING_FILE);
  if (!existsSync(old) || existsSync(store)) return;
  act.step("move", `${old} → ${store} (the proposals store: rejections and activations kept)`, true, () => {
    writeAtomic(store, readFileSync(old), 0o644);
    setMeta(store, 0o644, { user: LEARNER.user });
    unlinkSync(old);
  });
}

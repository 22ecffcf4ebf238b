// Preparing a state dir for a run: directories with their modes, the
// service users (as root), signing keys, and the dev caller's token.
import {
  type Stats,
  chmodSync,
  existsSync,
  lchownSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { type Config, defaultProposalsStore, SERVICES } from "../services/shared/config.js";
import { ensureKeys } from "../services/shared/keys.js";
import { ensureSystemUser, isRoot, lookupUser } from "../services/shared/privilege.js";
import { hashToken, newToken, parseTokensFile, type TokensFileShape } from "../services/gateway/tokens.js";

/**
 * Hands a tree to a service user. Run as root over a tree that user owns
 * (and may change meanwhile): a link it put there is chowned itself
 * (lchown), never what it points at, and never walked into. The walk enters
 * each directory and works with plain names, checking that where it stands
 * is the directory it saw, so a directory swapped for a link (or moved away)
 * mid-walk stops it instead of leading root elsewhere.
 */
export function chownRecursive(path: string, uid: number, gid: number): void {
  const back = process.cwd();
  try {
    const st = lstatSync(path);
    lchownSync(path, uid, gid);
    if (st.isDirectory()) chownEntries(path, st, undefined, uid, gid);
  } finally {
    process.chdir(back);
  }
}

function chdirTo(dir: string, want: Stats): void {
  process.chdir(dir);
  const here = statSync(".");
  if (here.dev !== want.dev || here.ino !== want.ino)
    throw new Error(`${dir} changed while its owner was being set (replaced by a link, or moved): stopped; nothing beyond it was touched`);
}

function chownEntries(dir: string, st: Stats, parent: Stats | undefined, uid: number, gid: number): void {
  chdirTo(dir, st);
  for (const name of readdirSync(".")) {
    const child = lstatSync(name);
    lchownSync(name, uid, gid);
    if (child.isDirectory()) chownEntries(name, child, st, uid, gid);
  }
  if (parent) chdirTo("..", parent);
}

/** Every ancestor must let the service users through (o+x) when they run apart from root. */
function checkTraversable(dir: string): void {
  for (let d = dir; ; d = dirname(d)) {
    if ((statSync(d).mode & 0o001) === 0) {
      throw new Error(
        `${d} is not searchable by other users (mode ${(statSync(d).mode & 0o777).toString(8)}), so the service users cannot reach ${dir}. ` +
          "Choose a state dir such as /var/lib/agent-sudo (AGENT_SUDO_HOME).",
      );
    }
    if (d === dirname(d)) return;
  }
}

/** A system user with its own group, no home, no login (useradd --system). */
export function ensureUser(name: string, log: (line: string) => void): void {
  if (ensureSystemUser(name).created) log(`created system user ${name}`);
}

/** The services' own users (all but the executor's root), made when missing. */
export function ensureServiceUsers(users: Config["users"], log: (line: string) => void): void {
  for (const service of SERVICES) if (service !== "executor") ensureUser(users[service], log);
}

export function prepareHome(config: Config, log: (line: string) => void): void {
  const root = isRoot();
  mkdirSync(config.home, { recursive: true, mode: 0o700 });
  if (root) {
    chmodSync(config.home, 0o711);
    checkTraversable(config.home);
    ensureServiceUsers(config.users, log);
  }
  for (const dir of [config.runDir, config.stateDir]) {
    mkdirSync(dir, { recursive: true, mode: 0o711 });
    chmodSync(dir, root ? 0o711 : 0o700);
  }
  mkdirSync(config.logsDir, { recursive: true, mode: 0o700 });
  // The default proposals store (state/proposals): the learner writes it, the console (the gateway's user) reads it.
  if (defaultProposalsStore(config)) {
    mkdirSync(config.proposalsDir, { recursive: true, mode: 0o755 });
    chmodSync(config.proposalsDir, 0o755);
  }
  // Writable state of the unprivileged gateway (its audit spool), owned by it.
  const gatewayState = join(config.stateDir, "gateway");
  mkdirSync(gatewayState, { recursive: true, mode: 0o700 });
  chmodSync(gatewayState, 0o700);
  if (root) {
    const gw = lookupUser(config.users.gateway);
    if (gw) chownRecursive(gatewayState, gw.uid, gw.gid);
  }
  for (const signer of ensureKeys(config.keysDir)) log(`generated signing key for ${signer}`);
}

/** The dev caller's token: AGENT_SUDO_DEV_TOKEN, else the one kept in the state dir, else a new one. */
export function ensureDevToken(config: Config): string {
  const file = join(config.home, "dev-token");
  let token = process.env.AGENT_SUDO_DEV_TOKEN;
  if (token !== undefined && !/^[\x21-\x7e]{16,512}$/.test(token)) {
    throw new Error("AGENT_SUDO_DEV_TOKEN must be 16–512 printable ASCII characters without spaces");
  }
  if (!token) token = existsSync(file) ? readFileSync(file, "utf8").trim() : newToken();
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  const tokens: TokensFileShape = parseTokensFile(config.tokensFile);
  const others = tokens.callers.filter((c) => c.name !== "dev");
  const dev = tokens.callers.find((c) => c.name === "dev");
  const next = { callers: [...others, { ...(dev ?? {}), name: "dev", token_sha256: hashToken(token) }] };
  writeFileSync(config.tokensFile, `${JSON.stringify(next, null, 2)}\n`, { mode: 0o600 });
  chmodSync(config.tokensFile, 0o600);
  return token;
}

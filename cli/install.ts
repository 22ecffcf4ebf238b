// `agent-sudo install` / `agent-sudo uninstall`: lays a host out the way
// systemd/README.md describes it — service users, the state dir with its keys
// and modes, the host's config.json, the code under the prefix, the systemd
// units and the AppArmor profiles. It prints every action; with --dry-run it
// only prints them. A second run finds nothing to do and says "unchanged". It
// never starts a unit or loads a profile: those are the printed next steps,
// a person's act.
//
// --root DIR stages every file under DIR (tests, image builds). The service
// users are created on this machine either way: they own files in the tree.
//
// This file holds the two commands; the parts are in files of their own:
// install-plan.ts (options, paths, the printed and counted actions),
// install-units.ts (users, state dir, config, units, profiles),
// install-code.ts (the code under the prefix) and install-network.ts (the
// units' network drop-ins).
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { HOST_IDS, type HostId, loadConfig } from "../services/shared/config.js";
import { isRoot, lookupUser } from "../services/shared/privilege.js";
import { installCode, MANIFEST, pruneEmpty, readManifest, removeListed } from "./install-code.js";
import { installNetworkDropIns } from "./install-network.js";
import {
  Actions,
  at,
  DEFAULT_PREFIX,
  HTTP,
  type Options,
  PROFILE_DIR,
  ROOT,
  type Say,
  sourceRoot,
  STATE_DIR,
  UNIT_DIR,
} from "./install-plan.js";
import { deploymentFiles, installState, LEARNER, rewritePrefix } from "./install-units.js";

const USAGE = `usage: agent-sudo install --host primary|server-01 [--dry-run] [--root DIR] [--prefix ${DEFAULT_PREFIX}] [--from BUILT_TREE]
       agent-sudo uninstall [--purge] [--dry-run] [--root DIR] [--prefix ${DEFAULT_PREFIX}] [--from BUILT_TREE]`;

function parse(argv: string[], install: boolean): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      host: { type: "string" },
      "dry-run": { type: "boolean", default: false },
      root: { type: "string", default: "/" },
      prefix: { type: "string", default: DEFAULT_PREFIX },
      purge: { type: "boolean", default: false },
      from: { type: "string" },
    },
    strict: true,
    allowPositionals: false,
  });
  if (install && !HOST_IDS.includes(values.host as HostId)) throw new Error(`--host must be one of ${HOST_IDS.join(", ")}\n${USAGE}`);
  if (!install && values.host !== undefined) throw new Error(`uninstall takes no --host\n${USAGE}`);
  if (install && values.purge) throw new Error(`--purge is an uninstall option\n${USAGE}`);
  const prefix = values.prefix.replace(/\/+$/, "");
  if (!/^\/[A-Za-z0-9._/-]+$/.test(prefix) || ["/usr", "/etc", "/var", "/opt", "/bin", "/lib", "/home"].includes(prefix)) {
    throw new Error(`--prefix must be a dedicated absolute directory such as ${DEFAULT_PREFIX} (got ${values.prefix})`);
  }
  if (!values.root.startsWith("/")) throw new Error("--root must be an absolute path");
  if (values.from !== undefined && !values.from.startsWith("/")) throw new Error("--from must be an absolute path");
  return {
    host: values.host as HostId | undefined,
    dryRun: values["dry-run"],
    root: values.root,
    prefix,
    purge: values.purge,
    from: values.from,
  };
}

function nextSteps(o: Options, say: Say): void {
  const r = o.root === "/" ? "" : o.root;
  say("");
  say("next steps (a person does these; install starts nothing):");
  if (!existsSync(at(o, "/usr/bin/node")))
    say("  0. the units run /usr/bin/node (Node >= 20): install it there (Debian 13 `nodejs`, or NodeSource)");
  say(
    `  1. add a caller: TOKEN=$(openssl rand -hex 32); put {"name":"…","token_sha256":"$(printf %s "$TOKEN" | sha256sum | cut -d' ' -f1)"} into ${r}${STATE_DIR}/tokens.json`,
  );
  say(
    `     the audit database and notifications: DATABASE_URL=… (and AGENT_SUDO_NTFY_URL=…) in ${r}${STATE_DIR}/gateway.env, AGENT_SUDO_NTFY_URL=… in ${r}${STATE_DIR}/breaker.env (0600 root), then install again: it allows the units exactly those hosts`,
  );
  say(
    `  2. load the AppArmor profiles — on ${o.host === "server-01" ? "server-01 first in complain mode, read the log, then enforce" : "primary only after server-01 ran clean in enforce mode"}:`,
  );
  say(`       apparmor_parser -r -W ${o.host === "server-01" ? "-C " : ""}${r}${PROFILE_DIR}/agent-sudo-*`);
  say("  3. systemctl daemon-reload && systemctl enable --now agent-sudo.target   (the services and the hourly rules-learn timer)");
  say(`  4. curl -s http://${HTTP.bind}:${HTTP.port}/health   (parallel run on ${HTTP.port}; the cutover to 8082 is a config.json edit)`);
  say("  the deployment table and the order of the rollout: systemd/README.md");
}

export async function installCommand(argv: string[]): Promise<number> {
  const o = parse(argv, true);
  const say: Say = (l) => process.stdout.write(`${l}\n`);
  if (!o.dryRun && !isRoot()) throw new Error("install must run as root (or try --dry-run)");
  const src = o.from ?? sourceRoot();
  const act = new Actions(o.dryRun, say);
  say(`agent-sudo install --host ${o.host}${o.dryRun ? " (dry run: nothing is changed)" : ""}${o.root !== "/" ? ` under ${o.root}` : ""}`);
  if (o.root !== "/") act.dir(o.root, 0o755, ROOT);
  installState(o, act, say);
  installCode(o, src, act);
  act.dir(at(o, UNIT_DIR), 0o755, ROOT);
  for (const n of deploymentFiles(src, "systemd"))
    act.file(at(o, join(UNIT_DIR, n)), rewritePrefix(readFileSync(join(src, "systemd", n), "utf8"), o.prefix), 0o644, ROOT);
  await installNetworkDropIns(o, act);
  act.dir(at(o, PROFILE_DIR), 0o755, ROOT);
  for (const n of deploymentFiles(src, "apparmor"))
    act.file(at(o, join(PROFILE_DIR, n)), rewritePrefix(readFileSync(join(src, "apparmor", n), "utf8"), o.prefix), 0o644, ROOT);
  say(
    act.changed === 0
      ? `nothing to do: all ${act.unchanged} actions unchanged`
      : `${act.changed} ${o.dryRun ? "would change" : "changed"}, ${act.unchanged} unchanged`,
  );
  nextSteps(o, say);
  return 0;
}

/** Refuses to pull files from under running units or loaded profiles on the live system. */
function checkStopped(o: Options, src: string): void {
  if (o.root !== "/") return;
  const units = deploymentFiles(src, "systemd");
  if (existsSync("/run/systemd/system")) {
    const active = units.filter((u) => {
      try {
        execFileSync("systemctl", ["is-active", "--quiet", u], { stdio: "ignore" });
        return true;
      } catch {
        return false;
      }
    });
    if (active.length) throw new Error(`still running: ${active.join(", ")}; first: systemctl disable --now agent-sudo.target`);
  }
  const loaded = "/sys/kernel/security/apparmor/profiles";
  if (existsSync(loaded) && /^agent-sudo-/m.test(readFileSync(loaded, "utf8"))) {
    throw new Error(`AppArmor profiles still loaded; first: apparmor_parser -R ${PROFILE_DIR}/agent-sudo-*`);
  }
}

export async function uninstallCommand(argv: string[]): Promise<number> {
  const o = parse(argv, false);
  const say: Say = (l) => process.stdout.write(`${l}\n`);
  if (!o.dryRun && !isRoot()) throw new Error("uninstall must run as root (or try --dry-run)");
  const src = o.from ?? sourceRoot();
  checkStopped(o, src);
  const act = new Actions(o.dryRun, say);
  say(
    `agent-sudo uninstall${o.purge ? " --purge" : ""}${o.dryRun ? " (dry run: nothing is changed)" : ""}${o.root !== "/" ? ` under ${o.root}` : ""}`,
  );
  const units = deploymentFiles(src, "systemd");
  for (const n of units) {
    act.remove(at(o, join(UNIT_DIR, n)));
    act.remove(at(o, join(UNIT_DIR, `${n}.d`)));
    act.remove(at(o, join(UNIT_DIR, `${n}.wants`)));
    for (const wants of ["multi-user.target.wants", "agent-sudo.target.wants"]) act.remove(at(o, join(UNIT_DIR, wants, n)));
  }
  for (const n of deploymentFiles(src, "apparmor")) act.remove(at(o, join(PROFILE_DIR, n)));
  const prefix = at(o, o.prefix);
  if (src !== prefix && existsSync(join(prefix, MANIFEST))) {
    const paths = readManifest(prefix);
    act.step("remove", `the ${paths.length} installed paths under ${prefix}`, true, () => {
      removeListed(prefix, [...paths, MANIFEST]);
      pruneEmpty(prefix);
    });
  }
  const home = at(o, STATE_DIR);
  if (o.purge) {
    const users = loadConfig(home).users;
    act.remove(home, `${home}/ (keys, tokens, journal, audit spool, proposals)`);
    for (const user of [...Object.values(users), LEARNER.user]) {
      if (lookupUser(user)) act.step("userdel", `system user ${user}`, true, () => execFileSync("userdel", [user], { stdio: "pipe" }));
    }
  } else if (existsSync(home)) {
    say(`  kept       ${home} and the service users (keys, tokens, journal, audit spool; --purge removes them)`);
  }
  say(act.changed === 0 ? "nothing to do: not installed" : `${act.changed} ${o.dryRun ? "would change" : "changed"}`);
  if (o.root === "/" && !o.dryRun) say("then: systemctl daemon-reload");
  return 0;
}

// `agent-sudo rules …`: review proposed rules. Activating one is the one act
// that widens what the system may do, and only a person does it.
//
//   list [--proposed | --rejected | --activated] [--policies DIR]
//   show ID [--policies DIR]                 the proposal and its evidence
//   activate ID [--tier N] [--policies DIR] [--last N | --commands FILE] [--by NAME] [--dry-run]
//   reject ID --reason TEXT [--by NAME] [--policies DIR]
//   learn [--min-runs 5] [--policies DIR]    audit → proposals (the learned allowlist)
//
// activate, in order, changing nothing until the last step: re-check the
// pattern (rule-shape's checkShape), refuse when the current policy's
// signature is tampered, get the signing key (local policy.key, or Vault
// transit when AGENT_SUDO_POLICY_BACKEND=vault-transit) — without it, stop;
// stage a copy of the policies with the rule placed before whatever would
// shadow it, re-parse it, check the rule decides its own command; print the
// impact (the last N audited commands — default 10,000 — re-classified with
// the current and the candidate policy by the real engine) and the diff;
// then sign the staged copy, verify it, and rename the changed policy file
// and the signatures into place. `--dry-run` stops before signing.
// Exit codes: 0 ok, 1 failure (nothing changed), 2 usage.
import { closeSync, existsSync, fsyncSync, openSync, readdirSync, readFileSync, renameSync } from "node:fs";
import { userInfo } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { loadEngine } from "../services/classifier/engine/index.js";
import { defaultHome, loadConfig } from "../services/shared/config.js";
import {
  type Backend,
  loadTrustedKeys,
  localSigner,
  type PolicySigner,
  saveVaultKeyCache,
  SIGNATURE_SUFFIX,
  signPolicies,
  transitSigner,
  verifyPolicies,
} from "../services/shared/policy-signature.js";
import { findProposal, markActivated, pendingPath, readPending, rejectProposal, type Proposal } from "../services/shared/proposals.js";
import { checkShape } from "../services/classifier/rule-shape.js";
import { transitPublicKeys, vaultSettingsFromEnv, withVaultToken } from "../services/shared/vault-transit.js";
import { dispatch, UsageError } from "./command.js";
import { type CliIo, commandsFor, connectAudit, impactOf, parseLast, printImpact, stdio } from "./policy-diff.js";
import { ruleMisses, type Staged, stageRule } from "./rule-placement.js";
import { DEFAULT_MIN_RUNS, learn, proposalNotice } from "./rules-learn.js";
import { createLogger } from "../services/shared/log.js";
import { Notifier, ntfySettingsFromEnv, PRIORITY } from "../services/shared/ntfy.js";
import { consoleUrl, proposalPage } from "../services/shared/console-url.js";

const USAGE = `usage: agent-sudo rules list [--proposed | --rejected | --activated] [--policies DIR]
       agent-sudo rules show ID [--policies DIR]
       agent-sudo rules activate ID [--tier N] [--policies DIR] [--last N | --commands FILE] [--by NAME] [--dry-run]
       agent-sudo rules reject ID --reason TEXT [--by NAME] [--policies DIR]
       agent-sudo rules learn [--min-runs N] [--policies DIR]`;

/** The policies (--policies, else config's) and the proposals store: config's proposals_dir when set, else beside --policies, else config's default. */
function locations(io: CliIo, policies: string | undefined): { keysDir: string; policiesDir: string; proposalsDir: string } {
  const config = loadConfig(io.env.AGENT_SUDO_HOME ? resolve(io.env.AGENT_SUDO_HOME) : defaultHome());
  const policiesDir = policies ? resolve(policies) : config.policiesDir;
  const beside = config.proposals_dir === undefined && policies !== undefined;
  return { keysDir: config.keysDir, policiesDir, proposalsDir: beside ? policiesDir : config.proposalsDir };
}

function person(by: string | undefined, io: CliIo): string {
  const name = (by ?? io.env.SUDO_USER ?? io.env.USER ?? userInfo().username).trim();
  if (!name || name.length > 255) throw new UsageError("--by NAME: who decides (1–255 characters)");
  return name;
}

function summary(p: Proposal): string {
  return `${p.id}  ${p.source.padEnd(7)}  ${p.policy === "sudo" ? "SUDO.md" : "CLAUDE_CMDS.md"}  tier ${p.suggested_tier}  ${p.evidence.clean_runs} clean  ${JSON.stringify(p.pattern)}`;
}

function list(args: string[], io: CliIo): number {
  const { values } = parseArgs({
    args,
    options: { proposed: { type: "boolean" }, rejected: { type: "boolean" }, activated: { type: "boolean" }, policies: { type: "string" } },
  });
  const file = readPending(locations(io, values.policies).proposalsDir);
  if (values.rejected)
    for (const r of file.rejected) io.out(`${r.id}  rejected ${r.at} by ${r.by}  ${JSON.stringify(r.pattern)}  — ${r.reason}`);
  else if (values.activated)
    for (const a of file.activated)
      io.out(`${a.id}  activated ${a.at} by ${a.by} as ${a.rule_id} in ${a.file} (tier ${a.tier})  ${JSON.stringify(a.pattern)}`);
  else for (const p of file.proposals) io.out(summary(p));
  return 0;
}

function show(args: string[], io: CliIo): number {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { policies: { type: "string" } } });
  if (positionals.length !== 1) throw new UsageError("show needs one proposal ID");
  const p = findProposal(locations(io, values.policies).proposalsDir, positionals[0] as string);
  const e = p.evidence;
  io.out(summary(p));
  io.out(`  example   ${JSON.stringify(p.example)}`);
  io.out(`  command   ${JSON.stringify(p.command)}${p.cwd ? ` (cwd ${p.cwd})` : ""}`);
  io.out(`  created   ${p.created_at}  updated ${p.updated_at}`);
  io.out(
    `  runs      ${e.clean_runs} clean, ${e.unclean_runs} other; tiers seen ${e.tiers_seen.join(", ") || "-"}; hosts ${e.hosts.join(", ") || "-"}`,
  );
  io.out(`  audit ids ${e.request_ids.join(" ") || "-"}`);
  if (e.trial) {
    io.out(
      `  trial     ${e.trial.ok ? "ok" : "NOT ok"}, exit ${e.trial.exit_code ?? "-"}${e.trial.request_id ? `, request ${e.trial.request_id}` : ""}`,
    );
    for (const t of e.trial.touched_paths) io.out(`    touched ${t}`);
    for (const f of e.trial.findings) io.out(`    finding ${f}`);
    for (const g of e.trial.gaps) io.out(`    gap     ${g}`);
  }
  const refused = checkShape(p.pattern);
  if (refused) io.err(`  WARNING: this pattern cannot be activated: ${refused}`);
  return 0;
}

function reject(args: string[], io: CliIo): number {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { reason: { type: "string" }, by: { type: "string" }, policies: { type: "string" } },
  });
  if (positionals.length !== 1) throw new UsageError("reject needs one proposal ID");
  const reason = values.reason?.trim();
  if (!reason) throw new UsageError("reject needs --reason TEXT");
  const r = rejectProposal(locations(io, values.policies).proposalsDir, positionals[0] as string, { reason, by: person(values.by, io) });
  io.out(`${r.id}: rejected by ${r.by}; ${JSON.stringify(r.pattern)} will not be proposed again`);
  return 0;
}

/** The signer, obtained before anything is staged; runs `use` with it. */
async function withSigner<T>(io: CliIo, keysDir: string, use: (signer: PolicySigner) => Promise<T>): Promise<T> {
  const backend = (io.env.AGENT_SUDO_POLICY_BACKEND ?? "local") as Backend;
  if (backend === "local") {
    let signer: PolicySigner;
    try {
      signer = localSigner(keysDir);
    } catch (err) {
      throw new Error(`activating a rule re-signs the policy and needs the signing key: ${(err as Error).message}. Nothing was changed.`);
    }
    return use(signer);
  }
  if (backend !== "vault-transit") throw new UsageError(`AGENT_SUDO_POLICY_BACKEND: ${backend} is not local or vault-transit`);
  const settings = vaultSettingsFromEnv(io.env);
  if (!settings)
    throw new Error(
      "activating a rule re-signs the policy: the vault-transit backend needs AGENT_SUDO_VAULT_ADDR, AGENT_SUDO_VAULT_ROLE_ID_FILE and AGENT_SUDO_VAULT_SECRET_ID_FILE. Nothing was changed.",
    );
  return withVaultToken(settings, async (vault) => {
    const r = await use(transitSigner(vault, settings));
    saveVaultKeyCache(keysDir, settings, await transitPublicKeys(vault, settings));
    return r;
  });
}

/** Rename the staged policy file, then every staged signature, into the policies directory. */
function install(staged: Staged, policiesDir: string): void {
  for (const [f, text] of staged.originals) {
    if (!existsSync(join(policiesDir, f)) || readFileSync(join(policiesDir, f), "utf8") !== text)
      throw new Error(`${f} changed while the rule was being staged; run activate again. Nothing was changed.`);
  }
  const { dir: stagedDir, file } = staged;
  renameSync(join(stagedDir, file), join(policiesDir, file));
  for (const sig of readdirSync(stagedDir).filter((f) => f.endsWith(SIGNATURE_SUFFIX)))
    renameSync(join(stagedDir, sig), join(policiesDir, sig));
  const fd = openSync(policiesDir, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

async function activate(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      tier: { type: "string" },
      policies: { type: "string" },
      last: { type: "string" },
      commands: { type: "string" },
      by: { type: "string" },
      "dry-run": { type: "boolean" },
    },
  });
  if (positionals.length !== 1) throw new UsageError("activate needs one proposal ID");
  const { keysDir, policiesDir, proposalsDir } = locations(io, values.policies);
  const last = parseLast(values.last);
  const tier = values.tier === undefined ? undefined : Number(values.tier);
  if (tier !== undefined && !(Number.isInteger(tier) && tier >= 0 && tier <= 4))
    throw new UsageError(`--tier: not a tier 0–4: ${values.tier}`);
  const by = person(values.by, io);
  const p = findProposal(proposalsDir, positionals[0] as string);
  const refused = checkShape(p.pattern);
  if (refused) throw new Error(`${p.id}: pattern ${JSON.stringify(p.pattern)} cannot be activated: ${refused}`);
  const current = verifyPolicies(policiesDir, loadTrustedKeys(keysDir));
  if (current.state === "tampered") {
    const why = current.files
      .filter((f) => f.state !== "signed")
      .map((f) => `${f.file}: ${f.reason}`)
      .join("; ");
    throw new Error(
      `the current policy's signature does not verify (${why}); re-signing it would vouch for changes nobody reviewed. Run \`agent-sudo policy verify\`. Nothing was changed.`,
    );
  }
  if (current.state === "unsigned") io.err("warning: the current policy is unsigned; activating signs all of it");
  const run = async (signer: PolicySigner | null): Promise<number> => {
    const finalTier = tier ?? p.suggested_tier;
    const rationale = `${p.source === "sandbox" ? "Trialled clean in the sandbox" : "Learned"}: ${p.evidence.clean_runs} clean runs (audit ${p.evidence.request_ids.slice(0, 3).join(", ") || "-"}); proposal ${p.id}, activated by ${by} ${new Date().toISOString().slice(0, 10)}.`;
    const staged = stageRule(policiesDir, p, finalTier, rationale);
    try {
      const [before, after] = await Promise.all([loadEngine(policiesDir), loadEngine(staged.dir)]);
      const miss = ruleMisses(after, staged.rule.id, p);
      if (miss)
        throw new Error(
          `placed in the policy, rule ${staged.rule.id} would not decide ${JSON.stringify(p.command)}: ${miss} does. Nothing was changed.`,
        );
      io.out(
        `rule ${staged.rule.id} (tier ${finalTier}, ${staged.rule.verbClass}) → ${staged.file} line ${staged.placement.line}${staged.placement.before ? `, before ${staged.placement.before}` : ""}`,
      );
      printImpact(impactOf(before, after, await commandsFor({ commands: values.commands, last, env: io.env })), io.out);
      for (const line of staged.diff) io.out(line);
      if (!signer) {
        io.out("dry run: nothing was changed");
        return 0;
      }
      const signed = await signPolicies(staged.dir, signer);
      const check = verifyPolicies(staged.dir, loadTrustedKeys(keysDir));
      if (check.state !== "signed")
        throw new Error(
          `the new signatures do not verify with the trusted keys (${check.files.map((f) => `${f.file}: ${f.reason}`).join("; ")}). Nothing was changed.`,
        );
      install(staged, policiesDir);
      markActivated(proposalsDir, p.id, { ruleId: staged.rule.id, file: staged.file, tier: finalTier, by });
      io.out(`activated ${p.id} as ${staged.rule.id} in ${join(policiesDir, staged.file)}; signed by ${signed.signed[0]?.keyId ?? "?"}`);
      io.out("the services read the policy at start: restart the classifier to apply it");
      return 0;
    } finally {
      staged.cleanup();
    }
  };
  return values["dry-run"] ? run(null) : withSigner(io, keysDir, run);
}

async function learnCommand(args: string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({ args, options: { "min-runs": { type: "string" }, policies: { type: "string" } } });
  const minRuns = Number(values["min-runs"] ?? DEFAULT_MIN_RUNS);
  if (!Number.isInteger(minRuns) || minRuns < 1 || minRuns > 1_000_000)
    throw new UsageError(`--min-runs: not a count: ${values["min-runs"]}`);
  const { policiesDir, proposalsDir } = locations(io, values.policies);
  const c = await connectAudit(io.env);
  try {
    const report = await learn(c, policiesDir, minRuns, { proposalsDir });
    for (const line of report.lines) io.out(line);
    io.out(`${report.proposed.length} proposals written to ${pendingPath(proposalsDir)} (review: agent-sudo rules list --proposed)`);
    const ntfy = {
      ...ntfySettingsFromEnv(io.env),
      consoleUrl: consoleUrl(loadConfig(io.env.AGENT_SUDO_HOME ? resolve(io.env.AGENT_SUDO_HOME) : defaultHome())),
    };
    if (report.proposed.length > 0 && ntfy.url) {
      // Low priority: a review can wait for an interactive session.
      const notifier = new Notifier(ntfy, createLogger("rules"));
      notifier.notify({
        title: `agent-sudo: ${report.proposed.length} new proposed rule(s)`,
        body: `Review in an interactive session (agent-sudo rules list --proposed):\n${proposalNotice(report.details)}`,
        priority: PRIORITY.low,
        tags: ["memo", "agent-sudo"],
        link: proposalPage(report.proposed.length === 1 ? report.details[0]?.id : undefined),
      });
      await Promise.race([notifier.idle(), new Promise((r) => setTimeout(r, 10_000).unref())]);
      notifier.close();
    }
    return 0;
  } finally {
    await c.end().catch(() => undefined);
  }
}

export async function rulesCommand(argv: string[], io: CliIo = stdio()): Promise<number> {
  return dispatch(
    "rules",
    USAGE,
    {
      list: (a) => list(a, io),
      show: (a) => show(a, io),
      activate: (a) => activate(a, io),
      reject: (a) => reject(a, io),
      learn: (a) => learnCommand(a, io),
    },
    argv,
    io,
  );
}

// /v1/hook: Claude Code's hook events, judged by the classifier. The answer
// is exactly Claude Code's hook schema; no opinion is 204 (the client prints
// nothing and Claude Code shows its normal prompt). Anything malformed is a
// deny with a reason — never an allow.
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { Source } from "../../proto/gen/agent_sudo/v1/classifier_pb.js";
import type { Config } from "../shared/config.js";
import { redactCredentials } from "../shared/credentials.js";
import { CodedError } from "../shared/errors.js";
import type { Logger } from "../shared/log.js";
import { type Notifier, PRIORITY } from "../shared/ntfy.js";
import { tierFromEnum, tierToEnum, type TierNumber } from "../shared/tier.js";
import { parseJson } from "./body.js";
import { call, type ServiceClients } from "./clients.js";
import type { HttpAnswer } from "./pipeline.js";
import type { AuditTrail } from "./audit-trail.js";
import type { DecisionType } from "./audit/record.js";

export const MAX_HOOK_BYTES = 1024 * 1024;

const PreToolUse = z.object({
  hook_event_name: z.literal("PreToolUse"),
  tool_name: z.string().max(256),
  tool_input: z.record(z.string(), z.unknown()),
  cwd: z.string().max(4096).optional(),
  session_id: z.string().max(256).optional(),
  tool_use_id: z.string().max(256).optional(),
});

const BashInput = z.object({
  command: z
    .string()
    .min(1)
    .max(16 * 1024),
});

/** `agent-sudo exec -- 'CMD'` alone, the argument one single-quoted word (with '\'' escapes). */
const ROUTED_EXEC = /^agent-sudo exec -- '(?:[^']|'\\'')*'$/;

export type HookDecision = "allow" | "deny";

type Verdict = { tier: TierNumber; rule: string; policyDigest: string };
/** What an outcome needs to know of the decision it belongs to. */
type DecisionRef = { requestId: string; decision: DecisionType } & Partial<Verdict>;
const MAX_REMEMBERED = 4096;

/** The client's PostToolUse / PostToolUseFailure event for Bash (Claude Code 2.1: no exit code field; a failure's `error` starts "Exit code N"). */
const PostToolUse = z.object({
  hook_event_name: z.enum(["PostToolUse", "PostToolUseFailure"]),
  tool_name: z.string().max(256),
  tool_input: z.object({ command: z.unknown() }).partial().passthrough().optional(),
  tool_response: z.unknown().optional(),
  tool_use_id: z.string().max(256).optional(),
  session_id: z.string().max(256).optional(),
  cwd: z.string().max(4096).optional(),
  error: z.unknown().optional(),
  is_interrupt: z.unknown().optional(),
  duration_ms: z.unknown().optional(),
  agent_id: z.unknown().optional(),
});

/** Exit code, duration and flags of an outcome event, from what the client sends. */
export function outcomeOf(event: z.infer<typeof PostToolUse>): { exitCode?: number; durationMs?: number; flags: Record<string, unknown> } {
  const failed = event.hook_event_name === "PostToolUseFailure";
  const response: Record<string, unknown> =
    event.tool_response && typeof event.tool_response === "object" ? (event.tool_response as Record<string, unknown>) : {};
  const flags: Record<string, unknown> = {};
  let exitCode: number | undefined;
  const stated =
    typeof response.exit_code === "number" ? response.exit_code : typeof response.exitCode === "number" ? response.exitCode : undefined;
  const fromError = typeof event.error === "string" ? /^Exit code (\d{1,3})\b/.exec(event.error)?.[1] : undefined;
  if (stated !== undefined && Number.isInteger(stated)) exitCode = stated;
  else if (fromError !== undefined) exitCode = Number(fromError);
  if (response.interrupted === true || event.is_interrupt === true) flags.interrupted = true;
  if (typeof response.backgroundTaskId === "string") flags.background = true;
  // A success event means exit 0, unless the command was only started (background) or cut short.
  if (exitCode === undefined && !failed && !flags.background && !flags.interrupted) exitCode = 0;
  const duration =
    typeof event.duration_ms === "number" && Number.isFinite(event.duration_ms) && event.duration_ms >= 0 ? event.duration_ms : undefined;
  return { ...(exitCode !== undefined ? { exitCode } : {}), ...(duration !== undefined ? { durationMs: duration } : {}), flags };
}

export function preToolUseAnswer(decision: HookDecision, reason: string): HttpAnswer {
  return {
    status: 200,
    body: { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: decision, permissionDecisionReason: reason } },
  };
}

const NO_OPINION: HttpAnswer = { status: 204, body: {} };

/** Single-quotes a command for the route message so it can be pasted back as is. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function routeMessage(command: string, tier: TierNumber, reason: string): string {
  return (
    `agent-sudo: tier ${tier} (${reason}). Not run directly. Run it through the broker, which trials, ` +
    `snapshots and audits it: agent-sudo exec -- ${shellQuote(command)}`
  );
}

/** A command carrying a credential literal: how to send it without one (the command is not echoed back). */
function credentialMessage(tier: TierNumber, reason: string): string {
  return (
    `agent-sudo: tier ${tier} (inline-credential: ${reason}). Not run. Keep the secret out of the command line ` +
    `(argv is visible to every process, and the line is audited): store it (Vault) and send the command through /exec ` +
    `with {"env_secrets": {"NAME": "vault://MOUNT/PATH#FIELD"}}, writing $NAME where the literal was. The literal was redacted from the audit.`
  );
}

export class HookJudge {
  constructor(
    private readonly clients: ServiceClients,
    private readonly config: Config,
    private readonly audit: AuditTrail,
    private readonly log: Logger,
    private readonly notifier?: Notifier,
  ) {}

  private lastSelfTestAlarm = 0;

  /** A failed self-test is announced (high), at most once per 10 minutes: every session start repeats it. */
  private selfTestFailed(detail: string): void {
    this.log.error({ detail }, "hook self-test failed");
    if (Date.now() - this.lastSelfTestAlarm < 600_000) return;
    this.lastSelfTestAlarm = Date.now();
    this.notifier?.notify({
      title: `agent-sudo: hook self-test failed on ${this.config.host_id}`,
      body: `${detail}\nAgents are told to treat every command with suspicion (or every Bash command is denied). Check \`agent-sudo doctor\`.`,
      priority: PRIORITY.high,
      tags: ["warning", "agent-sudo"],
    });
  }

  /**
   * Recent decisions by tool_use_id, so an outcome (PostToolUse…) is audited
   * with the tier, rule and request id of the decision it belongs to. Bounded:
   * the oldest entries go first; an outcome that finds none is still audited.
   */
  private readonly decisions = new Map<string, DecisionRef>();

  private remember(toolUseId: string | undefined, ref: DecisionRef): void {
    if (!toolUseId) return;
    this.decisions.delete(toolUseId);
    this.decisions.set(toolUseId, ref);
    while (this.decisions.size > MAX_REMEMBERED) {
      const oldest = this.decisions.keys().next().value;
      if (oldest === undefined) break;
      this.decisions.delete(oldest);
    }
  }

  /**
   * The answer, to be audited once the HTTP layer knows whether it reached the
   * hook (onDelivery): an answer the hook had already given up on (it printed
   * its fail-closed deny, and the client applied that) is audited as `late`.
   */
  private answered(requestId: string, command: string, cwd: string, answer: HttpAnswer, verdict?: Verdict, toolUseId?: string): HttpAnswer {
    return { ...answer, onDelivery: (delivered) => this.record(requestId, command, cwd, answer, delivered, verdict, toolUseId) };
  }

  /** Records the hook's answer (source hook); the answer stands even if the record fails. */
  private record(
    requestId: string,
    command: string,
    cwd: string,
    answer: HttpAnswer,
    delivered: boolean,
    verdict?: Verdict,
    toolUseId?: string,
  ): void {
    const out = answer.body.hookSpecificOutput as { permissionDecision?: string; permissionDecisionReason?: string } | undefined;
    const said: DecisionType =
      answer.status === 204
        ? "no_opinion"
        : out?.permissionDecision === "allow"
          ? "allowed"
          : out?.permissionDecisionReason?.includes("agent-sudo exec --")
            ? "routed"
            : "denied";
    const decision: DecisionType = delivered ? said : "late";
    if (!delivered)
      this.log.warn({ request_id: requestId, answer: said }, "hook answer not delivered: the hook had given up waiting (audited as late)");
    this.remember(toolUseId, { requestId, decision, ...(verdict ?? {}) });
    // Not awaited: nothing runs on the broker's side for a hook answer, so
    // the answer does not wait for the spool's fsync (the README says the
    // last few hook records can be lost in a crash).
    const evidence = {
      mode: this.config.hook.mode,
      answer: answer.status === 204 ? "no opinion" : answer.body,
      ...(delivered ? {} : { delivered: false, would_have_been: said }),
      ...(toolUseId ? { tool_use_id: toolUseId } : {}),
    };
    void this.audit
      .decision(
        { requestId, caller: "claude-hook", source: "hook", command, cwd, runAs: "", evidence, ...(verdict ?? {}) },
        { decision },
        // A deny is a refusal (and a late answer was one for the client): it may use the spool's reserve on a full disk.
        decision === "denied" || decision === "routed" || decision === "late",
      )
      .then((audited) => {
        if (!audited) {
          this.audit.noteUnaudited();
          this.log.error({ request_id: requestId }, "hook decision not audited: the spool could not be written");
          // A tier-4 attempt nobody can see afterwards disarms the breaker, whatever trip_on_tier4 says.
          if (verdict?.tier === 4) {
            const { breaker } = this.clients;
            call(
              breaker,
              breaker.report,
              { requestId, tier: tierToEnum(4), ok: false, refused: true, undoId: "", unaudited: true },
              1000,
            ).catch((err: unknown) => {
              this.log.warn({ request_id: requestId, err: (err as Error).message }, "hook: breaker report failed");
            });
          }
        }
      })
      .catch((err: unknown) => this.log.error({ err: (err as Error).message }, "hook decision not audited"));
  }

  /** Parses a raw hook body; any defect becomes a deny. */
  async preToolUse(raw: Buffer): Promise<HttpAnswer> {
    let input: z.infer<typeof PreToolUse>;
    try {
      if (raw[0] === 0xef && raw[1] === 0xbb && raw[2] === 0xbf) throw new CodedError("BAD_REQUEST", "input starts with a byte-order mark");
      const parsed = PreToolUse.safeParse(parseJson(raw));
      if (!parsed.success)
        throw new CodedError("BAD_REQUEST", `not a PreToolUse event (${parsed.error.issues[0]?.path.join(".") ?? "shape"})`);
      input = parsed.data;
    } catch (err) {
      const detail = err instanceof CodedError ? (err.detail ?? err.code) : "unreadable input";
      return preToolUseAnswer("deny", `agent-sudo: hook input refused: ${detail}`);
    }
    if (input.tool_name !== "Bash") return NO_OPINION;
    const bash = BashInput.safeParse(input.tool_input);
    if (!bash.success) return preToolUseAnswer("deny", "agent-sudo: Bash tool_input.command missing or over 16 KiB");
    const cwd = input.cwd ?? "";
    // One request id per decision: the classifier's, the log's and the audit's.
    const requestId = randomUUID();
    const { answer, verdict } = await this.judge(requestId, bash.data.command, cwd);
    return this.answered(requestId, bash.data.command, cwd, answer, verdict, input.tool_use_id);
  }

  private async judge(requestId: string, command: string, cwd: string): Promise<{ answer: HttpAnswer; verdict?: Verdict }> {
    const mode = this.config.hook.mode;
    if (mode === "routed" && ROUTED_EXEC.test(command)) {
      return { answer: preToolUseAnswer("allow", "agent-sudo: routed through /exec, which judges the command inside") };
    }
    const { classifier } = this.clients;
    const cleanCwd = cwd.startsWith("/") && !cwd.includes("\0") ? cwd : "";
    let response;
    try {
      response = await call(
        classifier,
        classifier.classify,
        { requestId, command, cwd: cleanCwd, host: this.config.host_id, runAs: "", source: Source.SOURCE_CLAUDE, envNames: [] },
        2000,
      );
    } catch (err) {
      this.log.warn({ request_id: requestId, err: (err as Error).message }, "hook: classifier unavailable");
      return { answer: preToolUseAnswer("deny", "agent-sudo: the classifier is unavailable, so Bash is blocked (fail closed)") };
    }
    const tier = tierFromEnum(response.tier);
    const verdict = { tier, rule: response.rule, policyDigest: Buffer.from(response.policyDigest).toString("hex") };
    const why = `tier ${tier}, rule ${response.rule}: ${response.reason}`;
    this.log.info({ request_id: requestId, tier, rule: response.rule, mode }, "hook judged");
    let answer: HttpAnswer;
    if (tier === 4) {
      answer = preToolUseAnswer("deny", `agent-sudo: refused (${why}). A person must run this in an interactive session.`);
      // Seed CA D7: a tier-4 attempt through the hook counts for the breaker like one on /exec (the same trip_on_tier4 setting decides).
      const { breaker } = this.clients;
      call(breaker, breaker.report, { requestId, tier: tierToEnum(4), ok: false, refused: true, undoId: "", unaudited: false }, 1000).catch(
        (err: unknown) => {
          this.log.warn({ request_id: requestId, err: (err as Error).message }, "hook: breaker report failed");
        },
      );
    } else if (mode === "conservative")
      answer = tier === 0 && response.explicit ? preToolUseAnswer("allow", `agent-sudo: ${why}`) : NO_OPINION;
    else if (tier <= 1) answer = preToolUseAnswer("allow", `agent-sudo: ${why}`);
    else if (response.rule === "inline-credential") answer = preToolUseAnswer("deny", credentialMessage(tier, response.reason));
    else answer = preToolUseAnswer("deny", routeMessage(command, tier, `${response.rule}: ${response.reason}`));
    return { answer, verdict };
  }

  /** SessionStart: a self-test the agent sees as additional context. */
  async sessionStart(): Promise<HttpAnswer> {
    const { classifier } = this.clients;
    const probe = (command: string) =>
      call(
        classifier,
        classifier.classify,
        { requestId: randomUUID(), command, cwd: "", host: this.config.host_id, runAs: "", source: Source.SOURCE_CLAUDE, envNames: [] },
        2000,
      );
    let context: string;
    try {
      const [safe, bad] = await Promise.all([probe("git status"), probe("rm -rf /")]);
      const passed = tierFromEnum(safe.tier) === 0 && tierFromEnum(bad.tier) === 4;
      const digest = Buffer.from(safe.policyDigest).toString("hex").slice(0, 12);
      if (!passed)
        this.selfTestFailed(`git status → tier ${tierFromEnum(safe.tier)}, rm -rf / → tier ${tierFromEnum(bad.tier)} (policy ${digest})`);
      context = passed
        ? `agent-sudo: gateway up, mode ${this.config.hook.mode}, host ${this.config.host_id}, policy ${digest}; self-test passed.`
        : `agent-sudo: SELF-TEST FAILED (git status → tier ${tierFromEnum(safe.tier)}, rm -rf / → tier ${tierFromEnum(bad.tier)}). Treat every Bash command with suspicion and tell the user.`;
    } catch {
      this.selfTestFailed("the gateway cannot reach its classifier");
      context =
        "agent-sudo: the gateway cannot reach its classifier, so every Bash command will be denied (fail closed). " +
        "The user can set AGENT_SUDO_HOOK_ESCAPE=1 to fall back to normal permission prompts.";
    }
    return { status: 200, body: { hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: context } } };
  }

  /**
   * PostToolUse / PostToolUseFailure on Bash: what the client ran (as the
   * user, outside any envelope) and how it ended, audited as a `hook_outcome`
   * with the exit code, the duration the client measured, and — found by
   * tool_use_id — the tier, rule and request id of the PreToolUse decision it
   * belongs to (evidence.decision_request_id). Never awaited: the agent does
   * not wait for the audit. `rules learn` reads these beside /exec outcomes.
   */
  async postToolUse(raw: Buffer): Promise<HttpAnswer> {
    try {
      const parsed = PostToolUse.safeParse(parseJson(raw));
      if (!parsed.success || parsed.data.tool_name !== "Bash") return NO_OPINION;
      const event = parsed.data;
      const command = String(event.tool_input?.command ?? "").slice(0, 16 * 1024);
      const { exitCode, durationMs, flags } = outcomeOf(event);
      const requestId = randomUUID();
      const str = (v: unknown, n: number) => (typeof v === "string" ? v.slice(0, n) : undefined);
      const decided = event.tool_use_id ? this.decisions.get(event.tool_use_id) : undefined;
      const evidence: Record<string, unknown> = { event: event.hook_event_name, ...flags };
      const fields = [
        ["session_id", str(event.session_id, 128)],
        ["tool_use_id", str(event.tool_use_id, 128)],
        ["agent_id", str(event.agent_id, 128)],
        ["error", str(event.error, 500)],
        ["decision_request_id", decided?.requestId],
        ["decision", decided?.decision],
      ] as const;
      for (const [k, v] of fields) if (v !== undefined) evidence[k] = v;
      const cwd = typeof event.cwd === "string" && event.cwd.startsWith("/") ? event.cwd : "";
      const verdict =
        decided?.tier !== undefined ? { tier: decided.tier, rule: decided.rule ?? "", policyDigest: decided.policyDigest ?? "" } : {};
      this.log.info(
        {
          request_id: requestId,
          decision_request_id: decided?.requestId,
          command: redactCredentials(command).slice(0, 200),
          exit_code: exitCode,
        },
        "hook: post-tool-use",
      );
      void this.audit
        .decision(
          { requestId, caller: "claude-hook", source: "hook", command, cwd, runAs: "", evidence, ...verdict },
          {
            decision: "hook_outcome",
            ...(exitCode !== undefined ? { exitCode } : {}),
            ...(durationMs !== undefined ? { durationMs } : {}),
          },
          false,
        )
        .then((audited) => {
          if (!audited) this.audit.noteUnaudited();
        })
        .catch(() => undefined);
    } catch {
      // an unreadable outcome is dropped; it never changes a decision
    }
    return NO_OPINION;
  }
}

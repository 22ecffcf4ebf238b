// The concurrence's entry point for one request: the judging context from
// the service's config and the request (host, cwd as the executor will use
// it, run-as, agent-sudo's own paths), and the judgment itself.
import type { ClassifyRequest } from "../../proto/gen/agent_sudo/v1/classifier_pb.js";
import type { Config } from "../shared/config.js";
import { lookupUid, lookupUser } from "../shared/privilege.js";
import { judgeText } from "./judge.js";
import type { Finding, HostKind, JudgeContext } from "./types.js";

export type { Finding, JudgeContext };

type GuardConfig = Pick<Config, "home" | "policiesDir"> & Partial<Pick<Config, "repoRoot">>;

/** Paths the autonomous system never touches through itself: its state, its policies, its code as it runs (a checkout too). */
export function guardPaths(config: GuardConfig): string[] {
  const code = config.repoRoot && config.repoRoot !== "/" ? [config.repoRoot] : [];
  return [...new Set([config.home, config.policiesDir, ...code, "/etc/agent-sudo", "/var/lib/agent-sudo", "/opt/agent-sudo"])];
}

/** The executor runs in req.cwd, or else the run-as user's home (services/executor/main.ts). */
function effectiveCwd(req: Pick<ClassifyRequest, "cwd" | "runAs">): string | undefined {
  if (req.cwd) return req.cwd;
  const who = req.runAs ? lookupUser(req.runAs) : lookupUid(0);
  return who?.home || undefined;
}

export function concurrenceContext(
  config: Pick<Config, "host_id"> & GuardConfig,
  req: Pick<ClassifyRequest, "cwd" | "runAs">,
): JudgeContext {
  return { host: config.host_id as HostKind, cwd: effectiveCwd(req), runAs: req.runAs, guardPaths: guardPaths(config), depth: 0 };
}

export function judgeCommand(command: string, ctx: JudgeContext): Finding {
  if (command.length > 16 * 1024) return { tier: 4, reason: "command too long to judge" };
  return judgeText(command, ctx);
}

// AWS reads that print the environment variables deployments keep their secrets in (round 28): a Lambda function's
// Configuration.Environment.Variables (`lambda get-function`, `get-function-configuration`), an ECS task
// definition's containerDefinitions[].environment, a Batch job definition's containerProperties.environment, and a
// parameter's past values (`ssm get-parameter-history`), and (stop 49) lists of them. The cloud-read rule reads them as 0. A `--query` that picks
// one named field outside those (`--query Configuration.Runtime`) prints no secret and stays as the rule says.
import type { Analysis } from "../analyzers.js";
import type { Word } from "../types.js";

const PRINTS_ENVIRONMENT = new Set([
  "lambda get-function",
  "lambda get-function-configuration",
  "ecs describe-task-definition",
  "batch describe-job-definitions",
  "ssm get-parameter-history",
  // Stop 51: every function's (or version's) configuration, with its environment; services that keep plain
  // environment variables in their descriptions.
  "lambda list-functions",
  "lambda list-versions-by-function",
  "ecs describe-tasks",
  "elasticbeanstalk describe-configuration-settings",
  "apprunner describe-service",
  "codebuild batch-get-projects",
  "amplify get-app",
  "amplify get-branch",
  "amplify list-branches",
  "sagemaker describe-training-job",
  "sagemaker describe-model",
  "glue get-job",
  "glue get-jobs",
]);

/** Fields that hold (or are objects holding) the environment or a parameter's value. */
const ENVIRONMENT_FIELD =
  /^(?:configuration|environment|variables|taskDefinition|containerDefinitions|jobDefinitions|containerProperties|ecsProperties|eksProperties|nodeProperties|Parameters|Value|secrets?)$/i;

/**
 * A query naming one leaf field by a plain path (`Configuration.Runtime`, `Parameters[0].Version`, a list's
 * `Functions[].FunctionName`), not an environment one.
 */
function narrowQuery(query: string): boolean {
  if (!/^[A-Za-z_]\w*(?:\[(?:\d+|\*)?\])?(?:\.[A-Za-z_]\w*(?:\[(?:\d+|\*)?\])?)*$/.test(query)) return false;
  const fields = query.replace(/\[(?:\d+|\*)?\]/g, "").split(".");
  const leaf = fields[fields.length - 1] ?? "";
  return !ENVIRONMENT_FIELD.test(leaf) && !/env|secret|password|token|key/i.test(leaf);
}

/** The value of `--query V` or `--query=V`, if given. */
function queryValue(args: readonly Word[]): Word | undefined {
  const at = args.findIndex((w) => /^--query(=|$)/.test(w.text));
  const w = args[at];
  if (w === undefined) return undefined;
  return w.text.startsWith("--query=") ? { ...w, text: w.text.slice("--query=".length) } : args[at + 1];
}

export function awsEnvironment(args: readonly Word[]): Analysis | null {
  const words = args.filter((w) => !w.text.startsWith("-")).map((w) => w.text);
  const op = words.findIndex((w, i) => PRINTS_ENVIRONMENT.has(`${w} ${words[i + 1] ?? ""}`));
  if (op < 0) return null;
  const q = queryValue(args);
  if (q !== undefined && !q.dynamic && narrowQuery(q.text)) return null;
  return {
    tier: 2,
    rule: "analysis:aws-environment",
    reason: `aws ${words[op]} ${words[op + 1]} prints environment variables or parameter values (where deployments keep secrets)`,
    kind: "floor",
  };
}

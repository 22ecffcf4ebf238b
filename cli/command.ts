// How every subcommand tells a mistake in its own use from a failure of what
// it does: one UsageError, and one test for it that also knows node:util
// parseArgs's errors. A usage error prints the message and the usage text
// and exits 2; anything else is the command failing (1, or its own codes).
export class UsageError extends Error {}

/** Exit code of a usage error, for every subcommand. */
export const EXIT_USAGE = 2;

/** Whether `err` is a mistake in how the command was called (ours, or parseArgs's ERR_PARSE_ARGS_*). */
export function isUsageError(err: unknown): err is Error {
  return err instanceof UsageError || ((err as { code?: unknown } | null)?.code?.toString().startsWith("ERR_PARSE_ARGS") ?? false);
}

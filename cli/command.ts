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

export interface CommandIo {
  out(line: string): void;
  err(line: string): void;
}

/** What a subcommand does with the arguments after its name; resolves to the exit code. */
export type Subcommand = (args: string[]) => number | Promise<number>;

const HELP = new Set(["help", "--help", "-h"]);

/**
 * Runs `argv[0]` from `table`. A help word prints `usage` (exit 0; nothing
 * given: the usage and 2); an unknown subcommand or a usage error prints the
 * message and the usage (2); any other failure prints "NAME SUB: message" (1).
 */
export async function dispatch(
  name: string,
  usage: string,
  table: Readonly<Record<string, Subcommand>>,
  argv: readonly string[],
  io: CommandIo,
): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === undefined || HELP.has(sub)) {
    io.out(usage);
    return sub === undefined ? EXIT_USAGE : 0;
  }
  const run = Object.hasOwn(table, sub) ? table[sub] : undefined;
  try {
    if (!run) throw new UsageError(`unknown subcommand ${JSON.stringify(sub)}`);
    return await run(rest);
  } catch (err) {
    if (isUsageError(err)) {
      io.err(`${name}: ${err.message}\n${usage}`);
      return EXIT_USAGE;
    }
    io.err(`${name} ${sub}: ${(err as Error).message}`);
    return 1;
  }
}

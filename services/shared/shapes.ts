// zod shapes of decoded requests that more than one service receives.
import { isAbsolute } from "node:path";
import { z } from "zod";

export const requestId = z.string().regex(/^[A-Za-z0-9_-]{1,128}$/);
export const command = z
  .string()
  .min(1)
  .max(16 * 1024)
  .refine((c) => !c.includes("\0"), "NUL byte");
export const cwd = z
  .string()
  .max(4096)
  .refine((c) => c === "" || isAbsolute(c), "cwd must be absolute");
export const runAs = z
  .string()
  .max(64)
  .regex(/^$|^[a-z_][a-z0-9_-]*\$?$/);
export const host = z.string().min(1).max(64);
/** Names of secret variables a command is given (judged by env-names.ts where it matters). */
export const envNames = z.array(z.string().max(64)).max(32);

export const ClassifyShape = z.object({
  requestId,
  command,
  cwd,
  host,
  runAs,
  source: z.number().int(),
  envNames,
});

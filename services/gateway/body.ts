// The /exec request body: read with a hard byte cap, parsed as JSON,
// validated with zod. Each failure has its own status and a clear message.
import type { IncomingMessage } from "node:http";
import { isAbsolute } from "node:path";
import { z } from "zod";
import { CodedError } from "../shared/errors.js";

export const MAX_COMMAND_BYTES = 16 * 1024;
// JSON escaping can make a 16 KiB command up to six times longer on the wire.
export const MAX_BODY_BYTES = 128 * 1024;

const ExecBody = z.object({
  command: z
    .string({ error: "command must be a string" })
    .min(1, "command is empty")
    .refine((c) => !c.includes("\0"), "command contains a NUL byte"),
  timeout: z.number().int().min(1).max(3600).default(300),
  cwd: z
    .string()
    .max(4096)
    .refine((c) => isAbsolute(c), "cwd must be an absolute path")
    .refine((c) => !c.includes("\0"), "cwd contains a NUL byte")
    .optional(),
  // NAME → "vault://mount/path#field"; checked by secrets.ts (precheckEnvSecrets).
  env_secrets: z.record(z.string(), z.unknown()).optional(),
});

export type ExecRequest = z.infer<typeof ExecBody>;

export async function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer> {
  const declared = Number(req.headers["content-length"] ?? "0");
  if (declared > limit) throw new CodedError("TOO_LARGE", `body over ${limit} bytes`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new CodedError("TOO_LARGE", `body over ${limit} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

export function parseJson(raw: Buffer): unknown {
  const text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });
  let decoded: string;
  try {
    decoded = text.decode(raw);
  } catch {
    throw new CodedError("BAD_REQUEST", "body is not valid UTF-8");
  }
  try {
    return JSON.parse(decoded);
  } catch {
    throw new CodedError("BAD_REQUEST", "body is not valid JSON");
  }
}

export function parseExecBody(raw: Buffer): ExecRequest {
  const json = parseJson(raw);
  const parsed = ExecBody.safeParse(json);
  if (!parsed.success) {
    const details = parsed.error.issues.map((i) => `${i.path.join(".") || "body"}: ${i.message}`).join("; ");
    throw new CodedError("BAD_REQUEST", details);
  }
  if (Buffer.byteLength(parsed.data.command, "utf8") > MAX_COMMAND_BYTES) {
    throw new CodedError("TOO_LARGE", `command over ${MAX_COMMAND_BYTES} bytes`);
  }
  return parsed.data;
}

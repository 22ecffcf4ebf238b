// Bearer tokens per named caller. The tokens file stores sha256 hashes only;
// a presented token is hashed and compared to every entry in constant time.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { z } from "zod";

const TokensFile = z
  .object({
    callers: z
      .array(
        z
          .object({
            name: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/),
            token_sha256: z.string().regex(/^[0-9a-f]{64}$/),
            run_as: z
              .string()
              .regex(/^[a-z_][a-z0-9_-]*$/)
              .optional(),
          })
          .strict(),
      )
      .max(1000),
  })
  .strict();

export type TokensFileShape = z.infer<typeof TokensFile>;

export interface Caller {
  name: string;
  runAs: string;
}

export function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

export function newToken(): string {
  return `asu_${randomBytes(24).toString("base64url")}`;
}

export function parseTokensFile(path: string): TokensFileShape {
  if (!existsSync(path)) return { callers: [] };
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch (err) {
    throw new Error(`${path}: not valid JSON (${(err as Error).message})`);
  }
  const parsed = TokensFile.safeParse(raw);
  if (!parsed.success) {
    throw new Error(`${path}: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  }
  return parsed.data;
}

export class TokenVerifier {
  private readonly entries: Array<{ hash: Buffer; caller: Caller }>;

  constructor(file: TokensFileShape) {
    this.entries = file.callers.map((c) => ({ hash: Buffer.from(c.token_sha256, "hex"), caller: { name: c.name, runAs: c.run_as ?? "" } }));
  }

  get size(): number {
    return this.entries.length;
  }

  /** The caller for an `Authorization` header value, or undefined. */
  verify(header: string | undefined): Caller | undefined {
    const match = /^Bearer ([\x21-\x7e]{1,512})$/.exec(header ?? "");
    const presented = createHash("sha256")
      .update(match?.[1] ?? "", "utf8")
      .digest();
    let found: Caller | undefined;
    // Every entry is compared, whether or not one already matched.
    for (const entry of this.entries) {
      if (timingSafeEqual(entry.hash, presented) && match) found = entry.caller;
    }
    return found;
  }
}

// The shape of a Vault connection's settings (zod only, so config.ts can
// validate it without loading the Vault client). Used by policy signing
// (transit) and secrets by reference (KV v2).
import { z } from "zod";

/** A `vault` block: where Vault is and the AppRole files the service logs in with. */
export const VaultSettingsSchema = z
  .object({
    addr: z
      .string()
      .url()
      .refine((u) => /^https?:\/\//.test(u), "addr must be an http(s) URL"),
    role_id_file: z.string().startsWith("/"),
    secret_id_file: z.string().startsWith("/"),
    approle_mount: z
      .string()
      .regex(/^[a-z0-9][a-z0-9_/-]*$/)
      .default("approle"),
    transit_mount: z
      .string()
      .regex(/^[a-z0-9][a-z0-9_/-]*$/)
      .default("transit"),
    transit_key: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/)
      .default("agent-sudo-policy"),
    ca_file: z.string().startsWith("/").optional(),
    timeout_ms: z.number().int().min(100).max(60_000).default(5_000),
  })
  .strict();

export type VaultSettings = z.infer<typeof VaultSettingsSchema>;

// The sandbox's settings. Until config.ts carries a `sandbox` block they come
// from `<state dir>/sandbox.json` (optional) and AGENT_SUDO_SANDBOX_DRIVER,
// validated with the zod shape that block will use; a bad value stops the
// service at start. The mask and forbidden lists are fixed when the service
// starts (as root, before the drop): the unprivileged half cannot change them.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import type { Config } from "../shared/config.js";
import { DEFAULT_SECRET_MASKS } from "../shared/envelope/masks.js";

export const DRIVERS = ["overlay", "incus", "none"] as const;
export type DriverName = (typeof DRIVERS)[number];

/** Data and secret paths a trial sees as empty: the same as every command's envelope. */
export const DEFAULT_MASKS = DEFAULT_SECRET_MASKS;

/**
 * Paths a trial must never write (not ok even though the write landed in the
 * overlay): kernel interfaces and boot. The broker's own state dir and
 * install dir are added at start.
 */
export const DEFAULT_FORBIDDEN = ["/boot", "/proc", "/sys", "/dev", "/etc/agent-sudo", "/etc/systemd/system/agent-sudo"];

export const SandboxSettingsShape = z
  .object({
    driver: z.enum(DRIVERS).default("overlay"),
    /** How the overlay driver starts a trial: bubblewrap where installed (auto), or the envelope program (perl-base only). */
    launcher: z.enum(["auto", "bwrap", "envelope"]).default("auto"),
    masks: z.array(z.string().startsWith("/").max(512)).max(256).default(DEFAULT_MASKS),
    forbidden: z.array(z.string().startsWith("/").max(512)).max(256).default(DEFAULT_FORBIDDEN),
    /** Upper bound on any trial's timeout, whatever the request asks. */
    max_timeout_s: z.number().int().min(1).max(3600).default(300),
    stdout_cap_bytes: z
      .number()
      .int()
      .min(1024)
      .max(4 * 1024 * 1024)
      .default(256 * 1024),
    stderr_cap_bytes: z
      .number()
      .int()
      .min(1024)
      .max(4 * 1024 * 1024)
      .default(64 * 1024),
    /** Size of the tmpfs that holds every running trial's upper layer. */
    tmpfs_size_mb: z
      .number()
      .int()
      .min(16)
      .max(64 * 1024)
      .default(2048),
    max_concurrent: z.number().int().min(1).max(16).default(2),
    /** Lower layers of mirrors of *other* hosts (debootstrap roots by build-sandbox.sh). */
    mirrors: z.record(z.string().min(1).max(64), z.string().startsWith("/")).default({}),
    incus: z
      .object({
        socket: z.string().startsWith("/").default("/var/lib/incus/unix.socket"),
        /** Instance per host id; default `sandbox-<host>`. */
        instances: z.record(z.string().min(1).max(64), z.string().regex(/^[a-z][a-z0-9-]{0,62}$/)).default({}),
        snapshot: z
          .string()
          .regex(/^[a-z][a-z0-9-]{0,62}$/)
          .default("baseline"),
      })
      .strict()
      .default({ socket: "/var/lib/incus/unix.socket", instances: {}, snapshot: "baseline" }),
  })
  .strict();

export type SandboxSettings = z.infer<typeof SandboxSettingsShape>;

export function settingsPath(config: Pick<Config, "home">): string {
  return join(config.home, "sandbox.json");
}

export function loadSandboxSettings(config: Pick<Config, "home" | "repoRoot" | "policiesDir" | "envelope">): SandboxSettings {
  const file = settingsPath(config);
  let raw: Record<string, unknown> = {};
  if (existsSync(file)) raw = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
  if (process.env.AGENT_SUDO_SANDBOX_DRIVER !== undefined) raw = { ...raw, driver: process.env.AGENT_SUDO_SANDBOX_DRIVER };
  if (process.env.AGENT_SUDO_SANDBOX_LAUNCHER !== undefined) raw = { ...raw, launcher: process.env.AGENT_SUDO_SANDBOX_LAUNCHER };
  const parsed = SandboxSettingsShape.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ");
    throw new Error(`${file}: ${issues}`);
  }
  const s = parsed.data;
  // The broker's own state is always masked and never writable from a trial:
  // keys, tokens, journal, undo store, and the policy it judges by. So are the
  // other stacks' state dirs and every secret path the executor's envelopes mask
  // (config `envelope`): a mirror run hides no less than a tier-0 one (review 19).
  const own = [config.home, config.policiesDir, config.repoRoot, ...config.envelope.state_dirs];
  return {
    ...s,
    masks: unique([...s.masks, config.home, ...config.envelope.state_dirs, ...config.envelope.masks]),
    forbidden: unique([...s.forbidden, ...own]),
  };
}

function unique(list: string[]): string[] {
  return [...new Set(list)];
}

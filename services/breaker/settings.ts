// The breaker's settings. Until config.ts carries a `breaker` block they come
// from the environment (AGENT_SUDO_BREAKER_*), validated with the same zod
// shape the config block will use; a bad value stops the breaker at start.
import { z } from "zod";

export const BreakerSettingsShape = z
  .object({
    /** N: tier-3 failures within the window that trip the breaker. */
    tier3_failures: z.number().int().min(1).max(1000).default(3),
    /** W: the tier-3 failure window, in minutes. */
    tier3_window_min: z.number().int().min(1).max(1440).default(10),
    /** Any tier-4 attempt trips (seed D7's default). */
    trip_on_tier4: z.boolean().default(true),
    /** R: reported requests per sliding minute above which it trips. */
    max_requests_per_min: z.number().int().min(1).max(100_000).default(120),
    /** F: failure ratio over the last M tier 1–3 outcomes above which it trips. */
    max_failure_ratio: z.number().gt(0).max(1).default(0.5),
    /** M: how many recent tier 1–3 outcomes the ratio looks at (and needs). */
    failure_ratio_last: z.number().int().min(2).max(10_000).default(20),
    /** Command mix: how many of the latest outcomes make the recent share of tier ≥ 2 … */
    mix_last: z.number().int().min(5).max(10_000).default(40),
    /** … how many outcomes before those make its baseline (judged only once there are this many) … */
    mix_baseline: z.number().int().min(10).max(100_000).default(400),
    /** … and by how much the recent share may rise over the baseline share (1 turns the rule off). */
    mix_max_rise: z.number().gt(0).max(1).default(0.5),
    /** Lifetime of a signed lease, in seconds. */
    lease_ttl_s: z.number().int().min(1).max(60).default(10),
    /** Group that may open run/breaker-admin.sock (0660) to Trip; unset: root only (0600). */
    admin_group: z.string().min(1).optional(),
  })
  .strict();

export type BreakerSettings = z.infer<typeof BreakerSettingsShape>;

const ENV: Record<keyof BreakerSettings, string> = {
  tier3_failures: "AGENT_SUDO_BREAKER_TIER3_FAILURES",
  tier3_window_min: "AGENT_SUDO_BREAKER_TIER3_WINDOW_MIN",
  trip_on_tier4: "AGENT_SUDO_BREAKER_TRIP_ON_TIER4",
  max_requests_per_min: "AGENT_SUDO_BREAKER_MAX_REQUESTS_PER_MIN",
  max_failure_ratio: "AGENT_SUDO_BREAKER_MAX_FAILURE_RATIO",
  failure_ratio_last: "AGENT_SUDO_BREAKER_FAILURE_RATIO_LAST",
  mix_last: "AGENT_SUDO_BREAKER_MIX_LAST",
  mix_baseline: "AGENT_SUDO_BREAKER_MIX_BASELINE",
  mix_max_rise: "AGENT_SUDO_BREAKER_MIX_MAX_RISE",
  lease_ttl_s: "AGENT_SUDO_BREAKER_LEASE_TTL_S",
  admin_group: "AGENT_SUDO_BREAKER_ADMIN_GROUP",
};

function fromEnvValue(key: keyof BreakerSettings, raw: string): unknown {
  if (key === "admin_group") return raw;
  if (key === "trip_on_tier4") {
    if (/^(1|true|yes|on)$/i.test(raw)) return true;
    if (/^(0|false|no|off)$/i.test(raw)) return false;
    return raw;
  }
  const n = Number(raw);
  return raw.trim() === "" || Number.isNaN(n) ? raw : n;
}

export function breakerSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): BreakerSettings {
  const raw: Record<string, unknown> = {};
  for (const [key, name] of Object.entries(ENV) as Array<[keyof BreakerSettings, string]>) {
    const value = env[name];
    if (value !== undefined && value !== "") raw[key] = fromEnvValue(key, value);
  }
  const parsed = BreakerSettingsShape.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .map((i) => `${ENV[i.path[0] as keyof BreakerSettings] ?? String(i.path[0])}: ${i.message}`)
      .join("; ");
    throw new Error(`breaker settings: ${issues}`);
  }
  return parsed.data;
}

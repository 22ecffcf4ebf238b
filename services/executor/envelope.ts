// Which envelope a verified command runs in (ARCHITECTURE "Envelopes"):
// tier 0 read-only; tier 3 and package runs live. Tiers 1–2 never run here:
// they reach the host only as a committed diff (commit.ts). The masks are
// expanded against the host at each start (execute.ts), so a home made since is covered.
import type { Config } from "../shared/config.js";
import { envelopeWords, liveSpec, readOnlySpec, type EnvelopeUser } from "../shared/envelope/spec.js";
import { groupsOf, type Account } from "../shared/privilege.js";

/** The envelope's words for the warm server (shared/envelope/server.ts). */
export function envelopeProgram(o: {
  tier: number;
  network: boolean;
  who: Account;
  switchUser: boolean;
  cwd: string;
  /** hostMasks(), expanded for this run. */
  masks: readonly string[];
  command: string;
  config: Config;
}): string[] {
  const masks = o.masks;
  const user: EnvelopeUser | undefined = o.switchUser
    ? { uid: o.who.uid, gid: o.who.gid, groups: groupsOf(o.who.name, o.who.gid) }
    : undefined;
  const spec =
    o.tier === 0
      ? readOnlySpec({ masks, cwd: o.cwd, network: o.network, ...(user ? { user } : {}) })
      : liveSpec({ masks, cwd: o.cwd, ...(user ? { user } : {}) });
  return envelopeWords(spec, [o.config.executor.shell, "-c", o.command]);
}

// Tier numbers (0 read-only … 4 refuse) and their protobuf enum, in one place.
import { Tier } from "../../proto/gen/agent_sudo/v1/decision_pb.js";

export type TierNumber = 0 | 1 | 2 | 3 | 4;

const toEnum: Record<TierNumber, Tier> = {
  0: Tier.TIER_READ_ONLY,
  1: Tier.TIER_REVERSIBLE,
  2: Tier.TIER_SANDBOX_FIRST,
  3: Tier.TIER_LIVE_SERVICE,
  4: Tier.TIER_REFUSE,
};

export function tierToEnum(tier: TierNumber): Tier {
  return toEnum[tier];
}

/** Unspecified or unknown enum values become tier 4: never guess downwards. */
export function tierFromEnum(tier: Tier): TierNumber {
  switch (tier) {
    case Tier.TIER_READ_ONLY:
      return 0;
    case Tier.TIER_REVERSIBLE:
      return 1;
    case Tier.TIER_SANDBOX_FIRST:
      return 2;
    case Tier.TIER_LIVE_SERVICE:
      return 3;
    default:
      return 4;
  }
}

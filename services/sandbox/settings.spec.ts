import { describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_SECRET_MASKS } from "../shared/envelope/masks.js";
import { loadSandboxSettings } from "./settings.js";

// Review 19: the mirror masked only sandbox.json's list and this stack's home; other stacks'
// state dirs and the secret paths configured for every envelope were readable in tiers 1-2.
describe("sandbox settings", () => {
  it("mask everything the executor's envelopes mask (other stacks' state dirs, configured secret paths) and forbid writes to the state dirs", () => {
    const home = mkdtempSync(join(tmpdir(), "sbx-settings-"));
    try {
      const s = loadSandboxSettings({
        home,
        repoRoot: "/srv/agent-sudo",
        policiesDir: "/srv/agent-sudo/policies",
        envelope: { state_dirs: ["/root/.agent-sudo", "/opt/other-stack/state"], masks: [...DEFAULT_SECRET_MASKS, "/srv/app/app.env"] },
      });
      for (const m of [home, "/root/.agent-sudo", "/opt/other-stack/state", "/srv/app/app.env", "/etc/shadow"])
        expect(s.masks).toContain(m);
      for (const f of [home, "/root/.agent-sudo", "/opt/other-stack/state", "/srv/agent-sudo"]) expect(s.forbidden).toContain(f);
      expect(new Set(s.masks).size).toBe(s.masks.length);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});

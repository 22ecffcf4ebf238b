import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["services/**/*.spec.ts", "cli/**/*.spec.ts", "test/**/*.spec.ts"],
    // As root: the stacks' system users, made before any file runs (test/support/global-setup.ts says why).
    globalSetup: ["test/support/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // End-to-end files each start a whole stack; two cores, so run files
    // two at a time rather than all at once.
    maxWorkers: 2,
    fileParallelism: true,
  },
});

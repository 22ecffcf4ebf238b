import { describe, expect, it } from "vitest";
import { labelledSignal, trainingSignal } from "./training-signal.js";

describe("training_signal", () => {
  it.each([
    [{ decision: "executed", exitCode: 0 }, "positive"],
    [{ decision: "executed", exitCode: 0, verifyPassed: true, rollbackTaken: false }, "positive"],
    [{ decision: "executed", exitCode: 2 }, "neutral"],
    [{ decision: "verify_failed", exitCode: 0, verifyPassed: false, rollbackTaken: true }, "negative"],
    [{ decision: "executed", exitCode: 0, rollbackTaken: true }, "negative"],
    [{ decision: "refused" }, "neutral"],
    [{ decision: "error" }, "neutral"],
    [{ decision: "allowed" }, "neutral"],
  ] as const)("%j → %s", (o, want) => expect(trainingSignal(o)).toBe(want));
  it("a person's verdict decides", () => {
    expect(labelledSignal("approve")).toBe("positive");
    expect(labelledSignal("reject")).toBe("negative");
  });
});

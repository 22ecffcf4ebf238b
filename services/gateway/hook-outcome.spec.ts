// What an outcome record says, from the events Claude Code 2.1 sends (shapes
// captured from the real client: test/client/).
import { describe, expect, it } from "vitest";
import { outcomeOf } from "./hook.js";

const base = { tool_name: "Bash", tool_input: { command: "ls /x" }, tool_use_id: "toolu_1" };

describe("outcomeOf", () => {
  it("PostToolUse: exit 0 and the client's duration", () => {
    expect(
      outcomeOf({
        ...base,
        hook_event_name: "PostToolUse",
        tool_response: { stdout: "a", stderr: "", interrupted: false, isImage: false },
        duration_ms: 133,
      }),
    ).toEqual({ exitCode: 0, durationMs: 133, flags: {} });
  });

  it("PostToolUseFailure: the exit code from the error text", () => {
    const error = "Exit code 2\nls: cannot access '/x': No such file or directory";
    expect(outcomeOf({ ...base, hook_event_name: "PostToolUseFailure", error, is_interrupt: false, duration_ms: 135 })).toEqual({
      exitCode: 2,
      durationMs: 135,
      flags: {},
    });
  });

  it("PostToolUseFailure without an exit code (a timeout, a spawn failure): none invented", () => {
    expect(outcomeOf({ ...base, hook_event_name: "PostToolUseFailure", error: "Command timed out after 2m" })).toEqual({ flags: {} });
  });

  it("an interrupted or backgrounded command has no exit code", () => {
    expect(outcomeOf({ ...base, hook_event_name: "PostToolUse", tool_response: { interrupted: true } })).toEqual({
      flags: { interrupted: true },
    });
    expect(outcomeOf({ ...base, hook_event_name: "PostToolUse", tool_response: { backgroundTaskId: "b1" } })).toEqual({
      flags: { background: true },
    });
    expect(outcomeOf({ ...base, hook_event_name: "PostToolUseFailure", error: "Exit code 130", is_interrupt: true })).toEqual({
      exitCode: 130,
      flags: { interrupted: true },
    });
  });

  it("ignores a duration that is not a non-negative number", () => {
    expect(outcomeOf({ ...base, hook_event_name: "PostToolUse", duration_ms: "12" }).durationMs).toBeUndefined();
    expect(outcomeOf({ ...base, hook_event_name: "PostToolUse", duration_ms: -1 }).durationMs).toBeUndefined();
  });
});

import { describe, expect, it } from "vitest";
import { dispatch, EXIT_USAGE, UsageError } from "./command.js";

function io() {
  const out: string[] = [];
  const err: string[] = [];
  return { out: (l: string) => out.push(l), err: (l: string) => err.push(l), outs: out, errs: err };
}

const table = {
  ok: () => 0,
  misuse: () => {
    throw new UsageError("needs an ID");
  },
  fails: async () => {
    throw new Error("the database is gone");
  },
};

describe("dispatch", () => {
  it("a help word prints the usage and exits 0; nothing at all prints it and exits 2", async () => {
    for (const word of ["help", "--help", "-h"]) {
      const o = io();
      expect(await dispatch("thing", "usage: thing ok", table, [word], o)).toBe(0);
      expect(o.outs).toEqual(["usage: thing ok"]);
    }
    const o = io();
    expect(await dispatch("thing", "usage: thing ok", table, [], o)).toBe(EXIT_USAGE);
  });

  it("an unknown subcommand (also an inherited property name) and a usage error: the message and the usage, 2", async () => {
    for (const sub of ["bogus", "constructor", "toString"]) {
      const o = io();
      expect(await dispatch("thing", "usage: thing ok", table, [sub], o)).toBe(2);
      expect(o.errs[0]).toBe(`thing: unknown subcommand ${JSON.stringify(sub)}\nusage: thing ok`);
    }
    const o = io();
    expect(await dispatch("thing", "usage: thing ok", table, ["misuse"], o)).toBe(2);
    expect(o.errs).toEqual(["thing: needs an ID\nusage: thing ok"]);
  });

  it("runs the subcommand with the rest of the arguments; a failure is 'NAME SUB: message', 1", async () => {
    const seen: string[][] = [];
    const o = io();
    expect(await dispatch("thing", "u", { ok: (a) => (seen.push(a), 0) }, ["ok", "-x", "y"], o)).toBe(0);
    expect(seen).toEqual([["-x", "y"]]);
    expect(await dispatch("thing", "u", table, ["fails"], o)).toBe(1);
    expect(o.errs).toEqual(["thing fails: the database is gone"]);
  });
});

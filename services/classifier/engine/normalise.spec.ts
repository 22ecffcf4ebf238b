import { describe, expect, it } from "vitest";
import { decodeAnsiC, foldConfusables, hasConfusable, normaliseProgram } from "./normalise.js";

describe("normalise", () => {
  it("decodes ANSI-C strings", () => {
    expect(decodeAnsiC("\\x72\\x6d")).toBe("rm");
    expect(decodeAnsiC("\\162\\155\\n")).toBe("rm\n");
    expect(decodeAnsiC("\\u0072m")).toBe("rm");
  });

  it("folds look-alikes and flags them", () => {
    expect(hasConfusable("rm −rf")).toBe(true);
    expect(foldConfusables("ｒｍ —rf\u200b /")).toBe("rm -rf /");
    expect(hasConfusable("rm -rf")).toBe(false);
  });

  it("normalises path-qualified programs but keeps scripts apart", () => {
    expect(normaliseProgram("/usr/bin/../bin/rm", "/w")).toEqual({ name: "rm", scriptPath: null });
    expect(normaliseProgram("/sbin/mkfs.ext4", "/w").name).toBe("mkfs.ext4");
    expect(normaliseProgram("./rm", "/w")).toEqual({ name: "/w/rm", scriptPath: "/w/rm" });
    expect(normaliseProgram("/opt/tool/bin/run", "/w").scriptPath).toBe("/opt/tool/bin/run");
  });
});

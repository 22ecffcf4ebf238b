import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { findGaps, RebuildManifest } from "./gaps.js";

describe("findGaps", () => {
  it.each([
    ["bash: line 1: frobnicate: command not found", { kind: "command", name: "frobnicate" }],
    ["/bin/sh: 1: frobnicate: not found", { kind: "command", name: "frobnicate" }],
    ["E: Unable to locate package cowsay", { kind: "package", name: "cowsay" }],
    [
      "E: Failed to fetch http://deb.debian.org/debian/pool/main/c/cowsay/cowsay_3.03+dfsg2-8_all.deb  Temporary failure resolving 'deb.debian.org'",
      { kind: "package", name: "cowsay" },
    ],
    ["chown: invalid user: ‘deploy’", { kind: "user", name: "deploy" }],
    ["id: 'deploy': no such user", { kind: "user", name: "deploy" }],
    ["chgrp: invalid group: 'media'", { kind: "group", name: "media" }],
    ["ls: cannot access '/opt/appdata/x': No such file or directory", { kind: "path", name: "/opt/appdata/x" }],
    ["agent-sudo-sandbox: can't cd to /srv/app: No such file or directory", { kind: "path", name: "/srv/app" }],
    ["agent-sudo-sandbox: unknown user 'bob'", { kind: "user", name: "bob" }],
  ])("%s", (text, gap) => expect(findGaps(text)).toContainEqual(gap));

  it("ignores temp paths and clean output", () => {
    expect(findGaps("cat: /tmp/x: No such file or directory")).toEqual([]);
    expect(findGaps("all good")).toEqual([]);
  });
});

describe("RebuildManifest", () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  it("appends new gaps once and reports repeats", () => {
    dir = mkdtempSync(join(tmpdir(), "gaps-"));
    const m = new RebuildManifest(dir, "server-01");
    expect(m.record([{ kind: "package", name: "jq" }])).toEqual({ fresh: [{ kind: "package", name: "jq" }], repeated: [] });
    expect(
      m.record([
        { kind: "package", name: "jq" },
        { kind: "user", name: "bob" },
      ]),
    ).toEqual({ fresh: [{ kind: "user", name: "bob" }], repeated: [{ kind: "package", name: "jq" }] });
    expect(readFileSync(m.file, "utf8")).toBe("package jq\nuser bob\n");
  });
  it("refuses a host id that is not a file name", () => {
    dir = mkdtempSync(join(tmpdir(), "gaps-"));
    expect(() => new RebuildManifest(dir, "../x")).toThrow();
  });
});

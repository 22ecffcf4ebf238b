import { describe, expect, it } from "vitest";
import { catastrophicTree, inferHome, resolvePlace, secretPath } from "./paths.js";
import type { Context, Word } from "./types.js";

const ctx: Context = {
  host: "primary",
  source: "claude",
  policy: "claude",
  cwd: "/home/dev/p",
  workspace: ["/home/dev/p"],
  home: "/home/dev",
  depth: 0,
  remote: false,
};
const w = (text: string, dynamic = false, glob = false): Word => ({ text, dynamic, glob, confusable: false });

describe("paths", () => {
  it("resolves relative paths, .. and ~ against the caller", () => {
    expect(resolvePlace(w("src/../x"), ctx).path).toBe("/home/dev/p/x");
    expect(resolvePlace(w("../../etc"), ctx).path).toBe("/home/etc");
    expect(resolvePlace(w("~/.bashrc"), ctx).path).toBe("/home/dev/.bashrc");
    expect(resolvePlace(w("$HOME", true), ctx).isHome).toBe(true);
    expect(resolvePlace(w("host:/srv/x"), ctx).path).toBeNull();
    expect(inferHome("/root/x")).toBe("/root");
  });

  it("knows catastrophic trees", () => {
    for (const p of ["/", "/etc", "/usr/lib", "/home/bob", "~"]) expect(catastrophicTree(resolvePlace(w(p), ctx), true), p).toBe(true);
    expect(catastrophicTree(resolvePlace(w("/*", false, true), ctx), true)).toBe(true);
    expect(catastrophicTree(resolvePlace(w("$D/", true), ctx), true)).toBe(true);
    for (const p of ["/tmp", "/home/dev/p/dist", "/etc/nginx/sites-enabled", "/var/tmp"])
      expect(catastrophicTree(resolvePlace(w(p), ctx), true), p).toBe(false);
  });

  it("knows secrets and their public halves", () => {
    for (const p of ["/home/u/.ssh/id_rsa", "/w/.env", "/w/.env.production", "/etc/shadow", "/home/u/.aws/credentials", "/w/server.key"])
      expect(secretPath(p), p).toBe(true);
    for (const p of ["/home/u/.ssh/id_rsa.pub", "/w/.env.example", "/etc/passwd", "/home/u/.ssh/known_hosts", "/w/src/env.ts"])
      expect(secretPath(p), p).toBe(false);
  });
});

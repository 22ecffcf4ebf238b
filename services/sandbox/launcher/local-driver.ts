// The drivers as the privileged launcher holds them: the overlay mirrors
// (this host, and debootstrap roots of other hosts) or the Incus client.
// Their configuration is fixed when the launcher starts — passed by the
// root parent before it drops privileges — and validated here.
import { z } from "zod";
import { IncusDriver } from "./incus.js";
import { OverlayMirror } from "./overlay.js";
import type { Driver, DriverInput, DriverRun } from "../trial.js";

export const LauncherConfigShape = z
  .object({
    driver: z.enum(["overlay", "incus"]),
    hostId: z.string().min(1).max(64),
    shell: z.string().startsWith("/"),
    stdoutCap: z.number().int().min(1),
    stderrCap: z.number().int().min(1),
    maxPaths: z.number().int().min(1),
    maxConcurrent: z.number().int().min(1).max(16),
    overlay: z
      .object({
        trialsRoot: z.string().startsWith("/"),
        launcher: z.enum(["auto", "bwrap", "envelope"]).default("auto"),
        tmpfsSizeMb: z.number().int().min(16),
        masks: z.array(z.string().startsWith("/")),
        skip: z.array(z.string().startsWith("/")),
        mirrors: z.record(z.string(), z.string().startsWith("/")),
      })
      .strict(),
    incus: z.object({ socket: z.string().startsWith("/"), instances: z.record(z.string(), z.string()), snapshot: z.string() }).strict(),
  })
  .strict();

export type LauncherConfig = z.infer<typeof LauncherConfigShape>;

class OverlayDriver implements Driver {
  readonly name = "overlay";

  constructor(private readonly mirrors: Map<string, OverlayMirror>) {}

  describe(): string {
    return [...this.mirrors.entries()].map(([host, m]) => `${host}: ${m.describe()}`).join("; ");
  }

  refuses(host: string): string | undefined {
    return this.mirrors.has(host) ? undefined : `no overlay mirror of host ${JSON.stringify(host)} here`;
  }

  run(input: DriverInput): Promise<DriverRun> {
    const mirror = this.mirrors.get(input.host);
    if (!mirror) return Promise.reject(new Error(`no overlay mirror of host ${input.host}`));
    return mirror.trial(input);
  }

  close(): void {
    for (const m of this.mirrors.values()) m.close();
  }
}

export function openLocalDriver(c: LauncherConfig): Driver & { close?(): void } {
  if (c.driver === "incus") {
    return new IncusDriver({ ...c.incus, shell: c.shell, stdoutCap: c.stdoutCap, stderrCap: c.stderrCap });
  }
  const roots: [string, string][] = [[c.hostId, "/"], ...Object.entries(c.overlay.mirrors).filter(([h]) => h !== c.hostId)];
  const mirrors = new Map<string, OverlayMirror>();
  for (const [host, lowerRoot] of roots) {
    mirrors.set(
      host,
      new OverlayMirror({
        trialsRoot: c.overlay.trialsRoot,
        launcher: c.overlay.launcher,
        tmpfsSizeMb: c.overlay.tmpfsSizeMb,
        masks: c.overlay.masks,
        lowerRoot,
        skip: c.overlay.skip,
        shell: c.shell,
        stdoutCap: c.stdoutCap,
        stderrCap: c.stderrCap,
        maxPaths: c.maxPaths,
      }),
    );
  }
  return new OverlayDriver(mirrors);
}

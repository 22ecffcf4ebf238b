// One trial, whatever the driver: live-service commands are skipped;
// package installs are trialled as their simulation (dry-run.ts);
// static validation runs beside the driver's run; gaps go to the host's
// rebuild manifest and, when the driver can fill them, the trial is retried
// once; the outcome is judged and signed (report.ts). Every failure of the
// machinery itself is a signed not-ok report, never an ok one.
import type { OverlayTrialOutput } from "./launcher/overlay.js";
import type { KeyObject } from "node:crypto";
import type { TrialReport, TrialRequest } from "../../proto/gen/agent_sudo/v1/sandbox_pb.js";
import { findGaps, type Gap, RebuildManifest } from "./gaps.js";
import { liveService } from "./live-service.js";
import { buildReport, MAX_TOUCHED, notRun, type TrialOutcome } from "./report.js";
import type { SandboxSettings } from "./settings.js";
import { CodedError } from "../shared/errors.js";
import { forbiddenWrites, shellcheck } from "./static.js";
import { dryRunForm } from "./dry-run.js";

export interface DriverInput {
  host: string;
  command: string;
  cwd: string;
  runAs: string;
  timeoutS: number;
  /** A transactional run: network granted by the classifier's signed decision. */
  network?: boolean;
  /** A transactional run: secret variables for its environment (never logged). */
  env?: Record<string, string>;
  /** A transactional run: build the manifest of its diff, binding these. */
  manifest?: { requestId: string; commandDigest: Uint8Array; host: string; maxBlobBytes: number };
}

/** What a driver returns for one run: the overlay driver's output shape. */
export type DriverRun = OverlayTrialOutput;

export interface Driver {
  readonly name: string;
  describe(): string;
  /** Why this driver cannot trial for `host` now, or undefined. */
  refuses(host: string): string | undefined;
  run(input: DriverInput): Promise<DriverRun>;
  /** Adds the gaps to the host's mirror; false when it could not. */
  fill?(host: string, gaps: Gap[]): Promise<boolean>;
}

export interface TrialContext {
  driver: Driver | undefined;
  settings: SandboxSettings;
  manifestDir: string;
  key: KeyObject;
  ttlS: number;
  shellcheckBin?: string;
}

export class TrialRunner {
  private readonly manifests = new Map<string, RebuildManifest>();

  constructor(private readonly ctx: TrialContext) {}

  private manifest(host: string): RebuildManifest {
    let m = this.manifests.get(host);
    if (!m) {
      m = new RebuildManifest(this.ctx.manifestDir, host);
      this.manifests.set(host, m);
    }
    return m;
  }

  async trial(req: TrialRequest): Promise<TrialReport> {
    const outcome = await this.outcome(req);
    return buildReport(req, outcome, this.ctx.settings, this.ctx.key, this.ctx.ttlS);
  }

  private async outcome(req: TrialRequest): Promise<TrialOutcome> {
    const { driver, settings } = this.ctx;
    const live = liveService(req.command);
    if (live) return notRun("", { skipped: `live-service (${live})` });
    if (!driver) return notRun("no sandbox driver is configured: the trial did not run");
    const refusal = driver.refuses(req.host);
    if (refusal) return notRun(refusal);

    const started = performance.now();
    // A command that downloads is trialled as its simulation (dry-run.ts): the trial has no network.
    const form = dryRunForm(req.command);
    const input: DriverInput = {
      host: req.host,
      command: form ?? req.command,
      cwd: req.cwd,
      runAs: req.runAs,
      timeoutS: Math.min(req.timeoutS || settings.max_timeout_s, settings.max_timeout_s),
    };
    const staticCheck = shellcheck(req.command, this.ctx.shellcheckBin);
    const forbiddenText = forbiddenWrites(req.command, settings.forbidden, settings.masks);
    let run: DriverRun;
    let gaps: Gap[] = [];
    let repeatedGaps: Gap[] = [];
    try {
      run = await driver.run(input);
      if (run.exitCode !== 0 || run.setupError) {
        const found = findGaps(run.stderr.toString("utf8"), run.stdout.toString("utf8"));
        const { fresh, repeated } = found.length > 0 ? this.manifest(req.host).record(found) : { fresh: [], repeated: [] };
        gaps = fresh;
        repeatedGaps = repeated;
        if (fresh.length > 0 && repeated.length === 0 && driver.fill && (await driver.fill(req.host, fresh))) {
          run = await driver.run(input);
          // Whatever is still missing after the rebuild is reported as repeated: no second retry.
          repeatedGaps = run.exitCode !== 0 ? findGaps(run.stderr.toString("utf8"), run.stdout.toString("utf8")) : [];
          if (repeatedGaps.length > 0) this.manifest(req.host).record(repeatedGaps);
          gaps = [];
        }
      }
    } catch (err) {
      await staticCheck;
      if ((err as Error).message.startsWith("busy:")) throw new CodedError("BUSY", (err as Error).message);
      return notRun(`the ${driver.name} driver failed: ${(err as Error).message}`);
    }
    const st = await staticCheck;
    return {
      ...run,
      truncated: run.truncated || run.changes.length > MAX_TOUCHED,
      changes: run.changes.slice(0, MAX_TOUCHED),
      staticErrors: st.errors,
      staticWarnings: form ? [...st.warnings, `trialled as its dry-run form: ${form}`] : st.warnings,
      forbiddenText,
      gaps,
      repeatedGaps,
      refusals: [],
      durationMs: performance.now() - started,
    };
  }
}

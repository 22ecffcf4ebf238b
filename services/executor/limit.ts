// A bound on simultaneous root processes: `max` run at once, `queue` may
// wait; anything beyond is refused as BUSY (the gateway answers 429).
import { CodedError } from "../shared/errors.js";

export class ExecutionGate {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    private readonly max: number,
    private readonly queue: number,
  ) {}

  /** A slot; its `queued` says whether the caller had to wait for it. */
  async acquire(): Promise<(() => void) & { queued: boolean }> {
    const queued = this.running >= this.max;
    if (queued) {
      if (this.waiting.length >= this.queue) throw new CodedError("BUSY");
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running++;
    }
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    };
    return Object.assign(release, { queued });
  }

  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }
}

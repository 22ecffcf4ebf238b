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

  async acquire(): Promise<() => void> {
    if (this.running >= this.max) {
      if (this.waiting.length >= this.queue) throw new CodedError("BUSY");
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running++;
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    };
  }

  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }
}

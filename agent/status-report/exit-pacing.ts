/**
 * Paces the looks that containers' exits ask for (docs/agent.md, "Status reported to the
 * Exchange"). A container's first exit is looked at at once. Its next exits within a hold are
 * looked at once, when the hold ends; each hold is twice the last, up to `maxHoldMs` (the periodic
 * check interval). So an exit is always reported, a second one within seconds, and a container
 * the engine restarts in a crash loop costs at most one look of its own per interval once the
 * holds have grown. A container quiet for a whole `maxHoldMs` after its hold starts afresh.
 */
interface Held {
  holdMs: number;
  /** When the current hold ends. */
  until: number;
  /** A look due when the hold ends (an exit came during it). */
  due?: NodeJS.Timeout;
}

export class ExitPacing {
  private readonly held = new Map<string, Held>();

  constructor(
    private readonly options: {
      firstHoldMs: number;
      maxHoldMs: number;
      now: () => number;
      look: () => void;
    },
  ) {}

  exited(containerId: string): void {
    const { now, firstHoldMs } = this.options;
    const at = now();
    this.forgetQuiet(at);
    const held = this.held.get(containerId);
    if (!held) {
      this.held.set(containerId, { holdMs: firstHoldMs, until: at + firstHoldMs });
      this.options.look();
    } else if (at >= held.until) {
      this.lookAndHoldLonger(held);
    } else if (!held.due) {
      held.due = setTimeout(() => {
        held.due = undefined;
        this.lookAndHoldLonger(held);
      }, held.until - at);
    }
  }

  /** Whether a look is due at the end of some container's hold. */
  pending(): boolean {
    return [...this.held.values()].some((held) => held.due !== undefined);
  }

  stop(): void {
    for (const held of this.held.values()) clearTimeout(held.due);
    this.held.clear();
  }

  private lookAndHoldLonger(held: Held): void {
    held.holdMs = Math.min(held.holdMs * 2, this.options.maxHoldMs);
    held.until = this.options.now() + held.holdMs;
    this.options.look();
  }

  private forgetQuiet(at: number): void {
    for (const [id, held] of this.held)
      if (!held.due && at >= held.until + this.options.maxHoldMs) this.held.delete(id);
  }
}

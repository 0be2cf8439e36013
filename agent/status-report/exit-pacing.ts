/**
 * Paces the looks that containers' exits ask for (docs/agent.md, "Status reported to the
 * Exchange"). A container's first exit is looked at at once. Its next exits within a hold are
 * looked at once, when the hold ends; each hold is twice the last, up to `maxHoldMs` (the periodic
 * check interval). A container is `restarting` from its exit until a hold ends without another
 * one, and that end is looked at too: the report then shows it up again (reporter.ts). So an exit
 * is always reported, a second one within seconds, and a container the engine restarts in a crash
 * loop costs at most one look of its own per interval once the holds have grown. A container
 * quiet for a whole `maxHoldMs` after its hold starts afresh.
 */
interface Held {
  holdMs: number;
  /** When the current hold ends. */
  until: number;
  /** An exit came during the current hold. */
  exitedDuring: boolean;
  /** The look at the end of the current hold (none once a hold ended quiet). */
  end?: NodeJS.Timeout;
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
    const at = this.options.now();
    this.forgetQuiet(at);
    const held = this.held.get(containerId);
    if (held?.end) {
      held.exitedDuring = true;
      return;
    }
    const next = held ?? { holdMs: this.options.firstHoldMs / 2, until: at, exitedDuring: false };
    this.held.set(containerId, next);
    this.lookAndHold(next);
  }

  /**
   * The containers in a hold that began with an exit and has not ended quiet: the engine restarted
   * each within seconds of its last exit, however it lists them at this instant.
   */
  restarting(): ReadonlySet<string> {
    return new Set([...this.held].filter(([, held]) => held.end !== undefined).map(([id]) => id));
  }

  /** Whether a look is due at the end of some container's hold. */
  pending(): boolean {
    return [...this.held.values()].some((held) => held.end !== undefined);
  }

  stop(): void {
    for (const held of this.held.values()) clearTimeout(held.end);
    this.held.clear();
  }

  /** Looks now and holds the container's next exits for twice the last hold (the first: `firstHoldMs`). */
  private lookAndHold(held: Held): void {
    held.holdMs = Math.min(held.holdMs * 2, this.options.maxHoldMs);
    held.until = this.options.now() + held.holdMs;
    held.exitedDuring = false;
    held.end = setTimeout(() => {
      held.end = undefined;
      if (held.exitedDuring) this.lookAndHold(held);
      else this.options.look();
    }, held.holdMs);
    this.options.look();
  }

  private forgetQuiet(at: number): void {
    for (const [id, held] of this.held)
      if (!held.end && at >= held.until + this.options.maxHoldMs) this.held.delete(id);
  }
}

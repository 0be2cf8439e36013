/**
 * The exits of workload containers the engine's events told (exit-watch.ts), counted per
 * container since the last time they were taken. Podman starts a container with restart policy
 * `always` again at once, without Docker's growing pause, so a container that exits as soon as it
 * starts shows `running` at almost every look at the engine; only its exits show the loop. The
 * container check takes them at each check: one that exited more than once since is failing.
 */
export class ExitCounts {
  private counts = new Map<string, number>();

  exited(containerId: string): void {
    this.counts.set(containerId, (this.counts.get(containerId) ?? 0) + 1);
  }

  /** The exits counted since the last take, by container id; counting starts afresh. */
  take(): ReadonlyMap<string, number> {
    const taken = this.counts;
    this.counts = new Map();
    return taken;
  }
}

/** The containers of `exits` that exited at least `times` times. */
export function exitedAtLeast(exits: ReadonlyMap<string, number>, times: number): ReadonlySet<string> {
  return new Set([...exits].filter(([, count]) => count >= times).map(([id]) => id));
}

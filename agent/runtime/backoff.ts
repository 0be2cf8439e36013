/**
 * Delay before retry number `failures` (1, 2, ...): doubling from `minMs`, capped at `maxMs`,
 * with "equal jitter" (half fixed, half random) so many nodes do not retry in step.
 */
export function backoffDelay(
  failures: number,
  minMs: number,
  maxMs: number,
  random: () => number = Math.random,
) {
  const ceiling = Math.min(maxMs, minMs * 2 ** Math.max(0, failures - 1));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

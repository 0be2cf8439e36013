import { alreadyExists } from '#lib/http/errors';
import { ok, type Response } from '#lib/http/responses';
import { RETRIES_KEPT, type RolloutControl } from '#lib/rollout/control';
import { getRollout, writeControl } from '#tables/rollout/records';
import { existingRollout, noPlan, rolloutName } from './access.ts';
import type { RolloutPath } from './schemas.ts';

const ATTEMPTS = 5;

/**
 * An operator action (docs/rollouts.md#operators): the control with the next sequence number,
 * written on the condition that no other action came in between (then read again and retried).
 */
export async function act(
  path: RolloutPath,
  what: string,
  change: (control: RolloutControl, seq: number) => RolloutControl,
): Promise<Response> {
  let item = await existingRollout(path);
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const seq = item.control.seq + 1;
    const next = { ...change(item.control, seq), seq };
    next.retries = next.retries.slice(-RETRIES_KEPT);
    if ((await writeControl(path.organization, path.policy, item.control.seq, next)) === 'written')
      return ok(`rollout of '${rolloutName(path)}': ${what} (action ${seq})`);
    const again = await getRollout(path.organization, path.policy);
    if (!again) throw noPlan(path);
    item = again;
  }
  throw alreadyExists(`rollout of '${rolloutName(path)}' changed meanwhile: try again`);
}

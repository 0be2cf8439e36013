import type { ExchangePolicy, NodePolicy } from '../exchange/types.ts';
import { loadPolicy, SEEN, savePolicy } from '../node/local.ts';
import { nodeSource } from '../node/record.ts';
import { enforceBuiltins, normalizePolicy, samePolicy } from '../policy/policy.ts';
import { canApply } from './document.ts';
import { nodeDocument } from './node-document.ts';

/** The node policy: its own Exchange resource (`.../nodes/{id}/policy`); none is a DELETE. */
export const policyDocument = nodeDocument<NodePolicy | undefined, ExchangePolicy | undefined>({
  kind: 'policy',
  worker: 'PolicySync',
  resources: ['nodepolicies'],
  what: 'node policy',
  refusedCode: 'error_policy_update',
  load: loadPolicy,
  save: savePolicy,
  push: (ctx, creds, value) =>
    value ? ctx.exchange.putPolicy(creds, value) : ctx.exchange.deletePolicy(creds),
  pull: (round) => round.ctx.exchange.getPolicy(round.creds),
  apply(round, remote) {
    const { ctx } = round;
    const node = canApply(round, 'policy');
    if (!node) return;
    const seen = ctx.store.get<string | null>(SEEN.policy);
    const local = loadPolicy(ctx.store);
    if (!remote) {
      // Gone from the Exchange after we had seen it there: deleted there, so delete it here too.
      if (seen === undefined) return;
      ctx.store.transaction(() => {
        if (local) {
          savePolicy(ctx.store, undefined);
          ctx.runtime.revision.policy++;
          ctx.events.node(
            'info',
            'delete_node_policy',
            'Node policy deleted in the Exchange',
            nodeSource(node),
          );
        }
        ctx.store.delete(SEEN.policy);
      });
      return;
    }
    if (remote.lastUpdated !== undefined && remote.lastUpdated === seen) return;
    const fromExchange = normalizePolicy(remote);
    const enforced = enforceBuiltins(fromExchange, ctx.host, local);
    ctx.store.transaction(() => {
      if (!samePolicy(enforced, local)) {
        savePolicy(ctx.store, enforced);
        ctx.runtime.revision.policy++;
        const message = `Node policy changed in the Exchange: ${JSON.stringify(enforced)}`;
        ctx.events.node('info', 'update_node_policy', message, nodeSource(node));
      }
      // The Exchange copy lacks the measured built-ins (or has other values): put them back.
      if (!samePolicy(enforced, fromExchange)) ctx.store.markPending('policy', ctx.now());
      ctx.store.set(SEEN.policy, remote.lastUpdated ?? null);
    });
    if (ctx.store.isPending('policy')) ctx.wake('policy');
  },
});

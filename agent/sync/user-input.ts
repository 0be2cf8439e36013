import type { ExchangeNode, UserInputEntry } from '../exchange/types.ts';
import { loadUserInput, SEEN, saveUserInput } from '../node/local.ts';
import { nodeSource, saveNode } from '../node/record.ts';
import { normalizeUserInput } from '../node/userinput.ts';
import { canApply } from './document.ts';
import { nodeDocument } from './node-document.ts';

/** The node's user input: the Exchange node's `userInput` attribute (its `ha_group` comes along). */
export const userInputDocument = nodeDocument<UserInputEntry[], ExchangeNode | undefined>({
  kind: 'userInput',
  worker: 'UserInputSync',
  resources: ['node'],
  what: 'node user input',
  refusedCode: 'error_userinput_update',
  load: loadUserInput,
  save: saveUserInput,
  push: (ctx, creds, value) => ctx.exchange.patchNode(creds, 'userInput', value),
  pull: (round) => round.exchangeNode(),
  apply(round, remote) {
    const { ctx } = round;
    const node = canApply(round, 'userInput');
    if (!node || !remote) return;
    const haGroup = remote.ha_group ?? '';
    if (haGroup !== node.ha_group) saveNode(ctx.store, { ...node, ha_group: haGroup });
    if (remote.lastUpdated !== undefined && remote.lastUpdated === ctx.store.get(SEEN.userInput)) return;
    const entries = normalizeUserInput(remote.userInput);
    ctx.store.transaction(() => {
      if (JSON.stringify(entries) !== JSON.stringify(loadUserInput(ctx.store))) {
        saveUserInput(ctx.store, entries);
        ctx.runtime.revision.userInput++;
        const message = `Node user input changed in the Exchange: ${JSON.stringify(entries)}`;
        ctx.events.node('info', 'update_node_userinput', message, nodeSource(node));
      }
      ctx.store.set(SEEN.userInput, remote.lastUpdated ?? null);
    });
  },
});

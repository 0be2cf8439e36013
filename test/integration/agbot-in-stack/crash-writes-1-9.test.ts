import { describe, expect, it } from 'vitest';
import { dynamoCallCount } from '#tables/client';
import type { OpenStore } from '../../../agbot/lambda/round.ts';
import {
  agreementFinalized,
  crashEachWrite,
  crashingStore,
  createRoundHandler,
  noCrash,
} from './crash/scenario.ts';

// One agreement's life, killed after each of its writes 1 to 9 (crash/scenario.ts says how).
describe('the in-stack agbot killed after one of its writes 1 to 9', () => {
  it('finishes the work in the next invocations: one proposal, the same end, nothing half done', async () => {
    expect(await crashEachWrite(1, 9)).toHaveLength(9);
  }, 600_000);
});

describe('an idle round', () => {
  it('lists the live agreements once', async () => {
    noCrash();
    const listings = { live: 0, archived: 0 };
    const counting: OpenStore = (agbot) => {
      const store = crashingStore(agbot);
      return {
        ...store,
        listAgreements: (archived) => {
          listings[archived ? 'archived' : 'live'] += 1;
          return store.listAgreements(archived);
        },
      };
    };
    // A live agreement to govern.
    await agreementFinalized('idle');
    // A warm instance: its first invocation starts it, the next ones are what an idle hour runs.
    const handler = createRoundHandler(counting);
    const lambda = { getRemainingTimeInMillis: () => 60_000 };
    await handler(undefined, lambda);
    listings.live = 0;
    const calls = dynamoCallCount();
    let rounds = 0;
    for (let i = 0; i < 5; i++) rounds += (await handler(undefined, lambda)).rounds;
    const perRound = (dynamoCallCount() - calls) / rounds;
    console.log(`idle warm round: ${perRound} DynamoDB calls (the agbot's and the Exchange's)`);
    expect(rounds).toBe(5);
    expect(listings).toEqual({ live: rounds, archived: 0 });
  });
});

/**
 * The in-stack agbot's entry point (functions/agbot-round/function.ts names it): the agbot's round
 * handler (agbot/lambda/round.ts) given the DynamoDB store of its state in the Exchange's table
 * (tables/agbot-state/). The floors keep the agbot and the tables apart; this composition root is
 * the one place that joins them.
 */
import { createRoundHandler } from '../agbot/lambda/round.ts';
import { dynamoAgbotStore } from '../tables/agbot-state/store.ts';

export const handler = createRoundHandler((agbot) => dynamoAgbotStore(agbot));

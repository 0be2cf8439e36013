import { describe } from 'vitest';
import { defineMatrix } from '#test/support/matrix';
import { useMatrixWorld } from '#test/support/matrix-world';
import { agreementCases, patternCases, policyCases } from './matrix/agbot-children.ts';
import { messageCases } from './matrix/agbot-messages.ts';
import { agbotCases } from './matrix/agbots.ts';
import { useOffline } from './support/offline.ts';

/**
 * Every endpoint of the agbot issue × every kind of caller, same org and other org, over HTTP
 * through serverless-offline: agbots, their agreements and confirmation, served patterns and
 * policies, messages. Expected statuses from docs/exchange.md#authorization/#agbots and the
 * agbot rules of docs/compatibility.md#agbots-and-agbot-agreements. Each case sets up what it changes; every 2xx
 * body is checked against our OpenAPI document and upstream's.
 */
const server = useOffline();
const getWorld = useMatrixWorld(server, 'ab');

describe.concurrent('agbots', () => defineMatrix(agbotCases, getWorld, server.http));
describe.concurrent('agbot agreements', () => defineMatrix(agreementCases, getWorld, server.http));
describe.concurrent('agbot deployment patterns', () => defineMatrix(patternCases, getWorld, server.http));
describe.concurrent('agbot deployment policies', () => defineMatrix(policyCases, getWorld, server.http));
describe.concurrent('agbot messages', () => defineMatrix(messageCases, getWorld, server.http));

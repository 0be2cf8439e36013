import { describe } from 'vitest';
import { useInProcessExchange } from '#test/support/in-process-exchange';
import { defineMatrix } from '#test/support/matrix';
import { useMatrixWorld } from '#test/support/matrix-world';
import { agreementCases, patternCases, policyCases } from './cases/agbot-children.ts';
import { messageCases } from './cases/agbot-messages.ts';
import { agbotCases } from './cases/agbots.ts';

/**
 * Every endpoint of the agbot issue × every kind of caller, same org and other org, over HTTP to
 * the handlers in this process: agbots, their agreements and confirmation, served patterns and
 * policies, messages. Expected statuses from docs/exchange.md#authorization/#agbots and the
 * agbot rules of docs/compatibility.md#agbots-and-agbot-agreements. Each case sets up what it changes; every 2xx
 * body is checked against our OpenAPI document and upstream's.
 */
const server = useInProcessExchange();
const getWorld = useMatrixWorld(server, 'ab');

describe.concurrent('agbots', () => defineMatrix(agbotCases, getWorld, server.http));
describe.concurrent('agbot agreements', () => defineMatrix(agreementCases, getWorld, server.http));
describe.concurrent('agbot deployment patterns', () => defineMatrix(patternCases, getWorld, server.http));
describe.concurrent('agbot deployment policies', () => defineMatrix(policyCases, getWorld, server.http));
describe.concurrent('agbot messages', () => defineMatrix(messageCases, getWorld, server.http));

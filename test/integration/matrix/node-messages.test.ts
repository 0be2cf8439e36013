import { describe } from 'vitest';
import { useInProcessExchange } from '#test/support/in-process-exchange';
import { defineMatrix } from '#test/support/matrix';
import { useMatrixWorld } from '#test/support/matrix-world';
import { givePublicKeys, nodeMessageCases } from './cases/node-messages.ts';

/**
 * Node messages × every kind of caller, same org and other org, over HTTP to the handlers in this
 * process (docs/exchange.md#node-mailbox). Every 2xx body is checked against our OpenAPI document
 * and upstream's.
 */
const server = useInProcessExchange();
const getWorld = useMatrixWorld(server, 'nm', givePublicKeys);

describe.concurrent('node messages', () => defineMatrix(nodeMessageCases, getWorld, server.http));

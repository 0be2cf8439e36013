import { describe } from 'vitest';
import { defineMatrix } from '#test/support/matrix';
import { useMatrixWorld } from '#test/support/matrix-world';
import { givePublicKeys, nodeMessageCases } from './matrix/node-messages.ts';
import { useOffline } from './support/offline.ts';

/**
 * Node messages × every kind of caller, same org and other org, over HTTP through
 * serverless-offline (docs/exchange.md#node-mailbox). Every 2xx body is checked against our OpenAPI document
 * and upstream's.
 */
const server = useOffline();
const getWorld = useMatrixWorld(server, 'nm', givePublicKeys);

describe.concurrent('node messages', () => defineMatrix(nodeMessageCases, getWorld, server.http));

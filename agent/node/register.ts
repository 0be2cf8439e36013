import { type Credentials, ExchangeHttpError, ExchangeUnavailableError } from '../exchange/client.ts';
import type { ExchangeNode } from '../exchange/types.ts';
import { AgentError, badInput, exchangeFailed } from '../ground/errors.ts';
import { AGENT_VERSION, REQUIRED_EXCHANGE_VERSION } from '../ground/version.ts';
import { defaultPolicy, enforceBuiltins, normalizePolicy, samePolicy } from '../policy/policy.ts';
import type { AgentContext } from '../runtime/context.ts';
import type { SyncKind } from '../runtime/sync-kinds.ts';
import { normalizeRegistered } from '../services/registered.ts';
import type { SyncValue } from '../sync/documents.ts';
import { pushValue, refusedCode } from '../sync/write-through.ts';
import { asAgentError, versionAtLeast } from './exchange-errors.ts';
import { clearLocal, SEEN, savePolicy, saveRegisteredServices, saveUserInput } from './local.ts';
import { credentials, loadNode, type NodeRecord, nodeSource, saveNode } from './record.ts';
import { normalizeUserInput } from './userinput.ts';

export interface Registration {
  id: string;
  organization: string;
  pattern: string;
  name: string;
  nodeType: 'device' | 'cluster';
  token: string;
}

export const restarting = () =>
  new AgentError(400, 'Node is restarting, please wait a few seconds and try again.', 'node');

/**
 * POST /node after input validation: checks with the Exchange that the org and node exist and the
 * token is accepted, stores the node in `configuring`, takes over the Exchange's user input and
 * policy (or gives the Exchange the built-in-only policy), and reports arch and version.
 */
export function register(ctx: AgentContext, input: Registration): Promise<NodeRecord> {
  return ctx.writes.run(async () => {
    if (loadNode(ctx.store)) throw new AgentError(409, 'device is already registered', 'node');
    if (ctx.runtime.unconfiguring) throw restarting();
    const creds: Credentials = { org: input.organization, id: input.id, token: input.token };
    const remote = await verify(ctx, creds, input).catch((err) => {
      throw asAgentError(err, `${creds.org}/${creds.id}`);
    });
    const nowSeconds = Math.floor(ctx.now() / 1000);
    const node: NodeRecord = {
      id: input.id,
      organization: input.organization,
      pattern: remote.pattern,
      name: input.name,
      nodeType: input.nodeType,
      token: input.token,
      token_valid: true,
      token_last_valid_time: nowSeconds,
      ha_group: remote.node.ha_group ?? '',
      configstate: { state: 'configuring', last_update_time: nowSeconds },
    };
    ctx.store.transaction(() => {
      clearLocal(ctx.store);
      saveNode(ctx.store, node);
      saveUserInput(ctx.store, normalizeUserInput(remote.node.userInput));
      ctx.store.set(SEEN.userInput, remote.node.lastUpdated ?? null);
      saveRegisteredServices(ctx.store, normalizeRegistered(remote.node.registeredServices));
      ctx.store.set(SEEN.services, remote.node.lastUpdated ?? null);
    });
    ctx.runtime.exchangeReachable = true;
    ctx.runtime.revision.userInput++;
    ctx.runtime.revision.services++;
    await initialPolicy(ctx, node);
    await announce(ctx, creds);
    ctx.log.info('node registered', { node: `${node.organization}/${node.id}`, pattern: node.pattern });
    // The first round runs now, not one interval later: the node's first heartbeat, and the
    // signal channel opens with it.
    ctx.pollNow();
    return node;
  });
}

async function verify(ctx: AgentContext, creds: Credentials, input: Registration) {
  const version = await ctx.exchange.version();
  if (!versionAtLeast(version, REQUIRED_EXCHANGE_VERSION)) {
    throw exchangeFailed(
      `The current exchange version ${version} does not meet the requirement. The required version is ${REQUIRED_EXCHANGE_VERSION} or above.`,
    );
  }
  ctx.runtime.exchangeVersion = version;
  const org = await ctx.exchange.getOrg(creds, creds.org);
  if (!org) throw badInput(`organization ${creds.org} not found in the Exchange`, 'device.organization');
  const node: ExchangeNode | undefined = await ctx.exchange.getNode(creds);
  if (!node) throw badInput(`node ${creds.org}/${creds.id} not found in the Exchange`, 'device.id');
  const exchangeType = node.nodeType || 'device';
  if (exchangeType !== input.nodeType) {
    throw badInput(
      `the exchange node type '${exchangeType}' is different from the given node type '${input.nodeType}'.`,
      'device.nodeType',
    );
  }
  const pattern = await resolvePattern(ctx, creds, input.pattern, node.pattern ?? '');
  return { node, pattern };
}

/** The pattern the node runs: the given one (org defaults to the node's) or the Exchange node's. */
async function resolvePattern(ctx: AgentContext, creds: Credentials, given: string, fromExchange: string) {
  const wanted = given === '' ? '' : given.includes('/') ? given : `${creds.org}/${given}`;
  if (fromExchange && wanted && wanted !== fromExchange) {
    throw badInput(
      `There is a conflict between the node pattern ${wanted} and the pattern ${fromExchange} of the node in the Exchange. Please leave the pattern field empty to use the Exchange's.`,
      'device.pattern',
    );
  }
  const pattern = wanted || fromExchange;
  if (!pattern) return '';
  const [org = '', name = ''] = pattern.split('/');
  if (!(await ctx.exchange.getPattern(creds, org, name))) {
    throw badInput(`pattern ${pattern} not found in exchange.`, 'device.pattern');
  }
  return pattern;
}

/** The Exchange's policy becomes the local one (built-ins enforced); none there → the default. */
async function initialPolicy(ctx: AgentContext, node: NodeRecord): Promise<void> {
  const creds = credentials(node);
  let remote: Awaited<ReturnType<typeof ctx.exchange.getPolicy>>;
  try {
    remote = await ctx.exchange.getPolicy(creds);
  } catch (err) {
    ctx.log.warn('could not read the node policy from the exchange', { reason: String(err) });
  }
  const fromExchange = remote && normalizePolicy(remote);
  const policy = fromExchange ? enforceBuiltins(fromExchange, ctx.host) : defaultPolicy(ctx.host);
  ctx.store.transaction(() => {
    savePolicy(ctx.store, policy);
    if (remote) ctx.store.set(SEEN.policy, remote.lastUpdated ?? null);
  });
  ctx.runtime.revision.policy++;
  if (!samePolicy(policy, fromExchange)) await pushOrKeep(ctx, node, 'policy', policy);
}

/** Best effort during registration: unreachable → pending for the sync worker; refused → error event. */
async function pushOrKeep<K extends SyncKind>(
  ctx: AgentContext,
  node: NodeRecord,
  kind: K,
  value: SyncValue<K>,
): Promise<void> {
  try {
    await pushValue(ctx, credentials(node), kind, value);
  } catch (err) {
    if (err instanceof ExchangeUnavailableError) {
      ctx.store.markPending(kind, ctx.now());
      ctx.wake(kind);
      return;
    }
    ctx.events.node(
      'error',
      refusedCode(kind),
      `Error in node configuration/registration for node ${node.id}. ${String(err)}`,
      nodeSource(node),
    );
  }
}

/** Tells the Exchange the node's architecture and agent version (best effort, one attribute per PATCH). */
async function announce(ctx: AgentContext, creds: Credentials): Promise<void> {
  for (const [attribute, value] of [
    ['arch', ctx.host.arch],
    ['softwareVersions', { horizon: AGENT_VERSION }],
  ] as const) {
    try {
      await ctx.exchange.patchNode(creds, attribute, value);
    } catch (err) {
      const reason = err instanceof ExchangeHttpError || err instanceof Error ? err.message : String(err);
      ctx.log.warn('could not update the node in the exchange', { attribute, reason });
    }
  }
}

import type { FastifyReply, FastifyRequest } from 'fastify';
import { AgentError, badInput } from '../ground/errors.ts';
import { own, ownTable } from '../ground/own.ts';
import { applyChange, nextJob, type StatusChange } from '../nmp/rules.ts';
import type { NmpStatus } from '../nmp/store.ts';
import { loadStatuses } from '../nmp/store.ts';
import { statusesView } from '../nmp/view.ts';
import { loadNode, nodeSource } from '../node/record.ts';
import type { AgentContext } from '../runtime/context.ts';
import { notRecorded, writeStatuses } from '../sync/management.ts';
import { nextJobQuery, statusBody } from './nodemanagement.schema.ts';
import type { RoutesPlugin } from './plugin.ts';
import { parseBody } from './validation.ts';

type Named = { Params: { nmp?: string; org?: string } };

/**
 * /nodemanagement/*: status objects keyed `<org>/<nmp name>`, addressed by `<nmp>` (the node's
 * org) or `<org>/<nmp>`. They come from the Exchange node's management statuses; every change
 * made here is written back there.
 */
export const nodeManagementRoutes: RoutesPlugin = async (app, { ctx }) => {
  app.get('/nodemanagement/status', async () => {
    if (!loadNode(ctx.store)) throw notRecorded();
    return statusesView(loadStatuses(ctx.store));
  });

  const getOne = async (req: FastifyRequest<Named>) => {
    const key = keyOf(ctx, req.params);
    const status = own(loadStatuses(ctx.store), key);
    if (!status) throw unknownNmp(key);
    return statusesView({ [key]: status });
  };
  app.get<Named>('/nodemanagement/status/:nmp', getOne);
  app.get<Named>('/nodemanagement/status/:org/:nmp', getOne);

  const putOne = async (req: FastifyRequest<Named>, reply: FastifyReply) => {
    const body = parseBody(statusBody, req.body, '', 'management status');
    const key = keyOf(ctx, req.params);
    await update(ctx, [key], body.agentUpgradePolicyStatus, true);
    return sendText(reply, `Updated status for NMP ${key}.`);
  };
  app.put<Named>('/nodemanagement/status/:nmp', putOne);
  app.put<Named>('/nodemanagement/status/:org/:nmp', putOne);

  app.put('/nodemanagement/reset', async (_req, reply) => {
    const keys = loadNode(ctx.store) ? Object.keys(loadStatuses(ctx.store)) : [];
    if (keys.length === 0) return sendText(reply, 'No nmp status found');
    await update(ctx, keys, { status: 'waiting' }, false);
    const what = keys.length === 1 ? 'NMP' : 'NMPs';
    return sendText(reply, `Updated the status for ${what} ${keys.join(',')}.`);
  });
  const resetOne = async (req: FastifyRequest<Named>, reply: FastifyReply) => {
    const key = keyOf(ctx, req.params);
    await update(ctx, [key], { status: 'waiting' }, true);
    return sendText(reply, `Updated status for NMP ${key}.`);
  };
  app.put<Named>('/nodemanagement/reset/:nmp', resetOne);
  app.put<Named>('/nodemanagement/reset/:org/:nmp', resetOne);

  // No registration needed (upstream); bad values are 400, not upstream's 500.
  app.get('/nodemanagement/nextjob', async (req) => {
    const parsed = nextJobQuery.safeParse(req.query);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw badInput(issue?.message ?? 'invalid query', String(issue?.path[0] ?? 'query'));
    }
    return statusesView(nextJob(loadStatuses(ctx.store), parsed.data.ready));
  });
};

/** `<org>/<nmp>` from the path: an nmp alone (or `org%2Fnmp`) belongs to the node's org. */
function keyOf(ctx: AgentContext, params: Named['Params']): string {
  if (params.org !== undefined) return `${params.org}/${params.nmp}`;
  const nmp = params.nmp ?? '';
  if (nmp.includes('/')) return nmp;
  const node = loadNode(ctx.store);
  if (!node) throw notRecorded();
  return `${node.organization}/${nmp}`;
}

/** Upstream answers these writes with a JSON string. */
const sendText = (reply: FastifyReply, text: string) =>
  reply.code(201).type('application/json').send(JSON.stringify(text));

const unknownNmp = (key: string) => new AgentError(404, `The nmp ${key} cannot be found`, 'management');

/**
 * Applies `change` to the statuses named (each must exist when `strict`); only statuses whose
 * status moves are written (locally and to the Exchange) and logged.
 */
async function update(ctx: AgentContext, keys: string[], change: StatusChange | undefined, strict: boolean) {
  const changed = await writeStatuses(ctx, (statuses) => {
    const out = ownTable<NmpStatus>();
    for (const key of keys) {
      const current = own(statuses, key);
      if (!current) {
        if (strict) throw unknownNmp(key);
        continue;
      }
      const next = change && applyChange(current, change, ctx.now());
      if (next) out[key] = next;
    }
    return out;
  });
  const node = loadNode(ctx.store);
  if (!node) return;
  for (const [key, status] of Object.entries(changed)) {
    const s = status.agentUpgradePolicyStatus;
    const error = s.errorMessage ? `, ErrorMessage: ${s.errorMessage}` : '';
    const message = `Node management status for ${key} changed to ${s.status}${error}.`;
    ctx.events.node('info', 'node_management_status_update_complete', message, nodeSource(node));
  }
}

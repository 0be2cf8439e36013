import Fastify, { type FastifyInstance } from 'fastify';
import { upstreamAgreement } from '#lib/agbot-store/agreement-view';
import type { AgbotStore } from '#lib/agbot-store/contract';
import { policyNames, policyReport, reportedPolicies } from '#lib/agbot-store/policy-status';

export interface AgbotStatus {
  org: string;
  id: string;
  exchangeUrl: string;
  rounds: number;
  lastRoundAt?: string;
  lastError?: string;
  /** Exchange requests made since start (an idle round makes one: POST /changes). */
  exchangeRequests?: number;
}

/**
 * The agbot's loopback status API (docs/agbot.md "Status"), read-only, no secret ever in it:
 * - `GET /status`;
 * - `GET /agreement`: active and archived, in upstream's `{"agreements":{"active","archived"}}`
 *   shape and field names;
 * - `GET /policy` and `GET /policy/{org}`: upstream's `{<org>: [names]}` of the policies served;
 * - `GET /policy/{org}/{name}`: that policy's status (counts and skipped nodes), our answer in
 *   place of upstream's internal policy document.
 * Each call reads the store once or twice (statuses, live agreements); no Exchange request.
 */
export function statusApi(status: () => AgbotStatus, store: AgbotStore): FastifyInstance {
  const app = Fastify({ logger: false, forceCloseConnections: true });
  app.get('/status', async () => status());
  app.get('/agreement', async () => ({
    agreements: {
      active: (await store.listAgreements(false)).map(upstreamAgreement),
      archived: (await store.listAgreements(true)).map(upstreamAgreement),
    },
  }));
  const policies = async (org?: string) =>
    reportedPolicies(await store.policyStatuses(), await store.listAgreements(false), org);
  app.get('/policy', async () => policyNames(await policies()));
  app.get<{ Params: { org: string } }>('/policy/:org', async (request) => {
    const names = policyNames(await policies(request.params.org));
    return { [request.params.org]: names[request.params.org] ?? [] };
  });
  app.get<{ Params: { org: string; name: string } }>('/policy/:org/:name', async (request, reply) => {
    const policy = `${request.params.org}/${request.params.name}`;
    const live = await store.listAgreements(false);
    const stored = await store.policyStatus(policy);
    if (!stored && !live.some((a) => a.policy === policy))
      return reply.code(404).send({ error: `policy ${policy} is not served by this agbot` });
    return policyReport(policy, stored, live);
  });
  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send({ error: `no route ${request.method} ${request.url}` }),
  );
  return app;
}

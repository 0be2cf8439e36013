import Fastify, { type FastifyInstance } from 'fastify';
import type { AgbotStore } from '#lib/agbot-store/contract';

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
 * The agbot's loopback status API: `GET /status` and `GET /agreement` (active and archived, in
 * upstream's `{"agreements":{"active","archived"}}` shape). Read-only, no secret is ever in it.
 */
export function statusApi(status: () => AgbotStatus, store: AgbotStore): FastifyInstance {
  const app = Fastify({ logger: false, forceCloseConnections: true });
  app.get('/status', async () => status());
  app.get('/agreement', async () => ({
    agreements: { active: await store.listAgreements(false), archived: await store.listAgreements(true) },
  }));
  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send({ error: `no route ${request.method} ${request.url}` }),
  );
  return app;
}

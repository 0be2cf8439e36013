import type { FastifyPluginAsync } from 'fastify';
import type { AgentContext } from '../context.ts';

/** Every route plugin gets the agent context as its option. */
export type RoutesPlugin = FastifyPluginAsync<{ ctx: AgentContext }>;

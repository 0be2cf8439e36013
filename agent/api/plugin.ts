import type { FastifyPluginAsync } from 'fastify';
import type { AgentContext } from '../runtime/context.ts';

/** Every route plugin gets the agent context as its option. */
export type RoutesPlugin = FastifyPluginAsync<{ ctx: AgentContext }>;

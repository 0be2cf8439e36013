import { join } from 'node:path';
import { InvalidTrustFile } from '#lib/protocol/trust-file';
import { AgentError, badInput } from '../ground/errors.ts';
import { loadNode, nodeSource } from '../node/record.ts';
import type { AgentContext } from '../runtime/context.ts';
import { TrustStore } from '../trust/store.ts';
import type { RoutesPlugin } from './plugin.ts';

type Named = { Params: { filename: string } };

/**
 * /trust (upstream alias /publickey is not served): trusted certificates and RSA public keys that
 * verify service deployments. PUT takes the PEM text as the body with any content type but the
 * form encodings (request-guard.ts; upstream's hzn sends none, ours text/plain).
 */
export const trustRoutes: RoutesPlugin = async (app, { ctx }) => {
  const trust = new TrustStore(ctx.config.trustDir ?? join(ctx.config.dataDir, 'trust'), ctx.now);
  // This plugin only: bodies are text, never JSON (content parsers are scoped to the plugin).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));

  app.get<{ Querystring: { verbose?: unknown } }>('/trust', async (req) => {
    const verbose = req.query.verbose;
    if (verbose !== undefined && verbose !== 'true' && verbose !== 'false')
      throw badInput('verbose must be true or false', 'verbose');
    return { pem: verbose === 'true' ? trust.describe() : trust.list() };
  });

  app.get<Named>('/trust/:filename', async (req, reply) => {
    const text = trust.read(req.params.filename);
    if (text === undefined) throw missing(req.params.filename);
    return reply.type('text/plain; charset=utf-8').send(text);
  });

  // 200 and no body (docs/agent.md#endpoints).
  app.put<Named>('/trust/:filename', { config: { textBody: true } }, async (req, reply) => {
    const name = req.params.filename;
    try {
      trust.write(name, typeof req.body === 'string' ? req.body : '');
    } catch (err) {
      if (!(err instanceof InvalidTrustFile)) throw err;
      throw badInput(`provided public key or cert is not valid; error: ${err.message}`, 'trusted cert file');
    }
    event(ctx, 'add_trusted_cert', `Trusted certificate or key ${name} added.`);
    return reply.code(200).send();
  });

  app.delete<Named>('/trust/:filename', async (req, reply) => {
    const name = req.params.filename;
    if (!trust.remove(name)) throw missing(name);
    event(ctx, 'delete_trusted_cert', `Trusted certificate or key ${name} removed.`);
    return reply.code(204).send();
  });
};

const missing = (name: string) => new AgentError(404, `unable to find input file ${name}`, 'filename');

/** Trust changes are logged under the node (or an empty node source before registration). */
function event(ctx: AgentContext, code: string, message: string): void {
  const node = loadNode(ctx.store);
  const source = node
    ? nodeSource(node)
    : { node_id: '', node_org: '', pattern: '', config_state: 'unconfigured' };
  ctx.events.node('info', code, message, source);
}

import {
  createAttribute,
  deleteAttribute,
  patchAttribute,
  replaceAttribute,
} from '../attributes/attributes.ts';
import { loadAttributes } from '../attributes/store.ts';
import { attributeView } from '../attributes/view.ts';
import { attributeBody, attributePatch } from './attribute.schema.ts';
import { requireNodeRecord } from './gate.ts';
import type { RoutesPlugin } from './plugin.ts';
import { parseBody } from './validation.ts';

type IdParams = { Params: { id: string } };

/** /attribute and /attribute/{id}; secrets (passwords, registry tokens) are never shown. */
export const attributeRoutes: RoutesPlugin = async (app, { ctx }) => {
  requireNodeRecord(app, ctx);

  app.get('/attribute', async () => ({ attributes: loadAttributes(ctx.store).map(attributeView) }));

  // 201 and no body; Location names the new attribute.
  app.post('/attribute', async (req, reply) => {
    const attribute = createAttribute(ctx, parseBody(attributeBody, req.body, '', 'attribute'));
    return reply.code(201).header('location', `/attribute/${attribute.id}`).send();
  });

  // Upstream: an unknown id is an empty list, not a 404.
  app.get<IdParams>('/attribute/:id', async (req) => ({
    attributes: loadAttributes(ctx.store)
      .filter((a) => a.id === req.params.id)
      .map(attributeView),
  }));

  app.put<IdParams>('/attribute/:id', async (req) =>
    attributeView(replaceAttribute(ctx, req.params.id, parseBody(attributeBody, req.body, '', 'attribute'))),
  );

  app.patch<IdParams>('/attribute/:id', async (req) =>
    attributeView(patchAttribute(ctx, req.params.id, parseBody(attributePatch, req.body, '', 'attribute'))),
  );

  app.delete<IdParams>('/attribute/:id', async (req) => attributeView(deleteAttribute(ctx, req.params.id)));
};

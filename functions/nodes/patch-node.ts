import { endpoint } from '#functions/endpoint';
import { hashCredential } from '#lib/auth/authenticate';
import { isSuperUser } from '#lib/auth/caller';
import { accessDenied, badInput } from '#lib/http/errors';
import { ok } from '#lib/http/responses';
import { isoTimestamp } from '#lib/time';
import { saveNode } from '#tables/node/save';
import { authorizeNode, nodeConflict, nodeNotFound, resourceId } from './access.ts';
import { PATCH_ATTRIBUTES, patchChange } from './node-input.ts';
import { patternProblem, userInputProblem } from './reference-rules.ts';
import { nodesRoutes } from './routes.ts';
import {
  EMPTY_TOKEN,
  nodeTypeProblem,
  publicKeyNotToken,
  registeredServicesProblem,
  sizeProblem,
} from './rules.ts';

/**
 * PATCH /v1/orgs/{organization}/nodes/{node}: exactly one attribute (docs/exchange.md#node-patch); who as PUT.
 * Only the node itself or root may set publicKey, and only while none is set.
 */
export const handler = endpoint(nodesRoutes.operations.patchNode, {
  authorize: ({ caller, path }) => authorizeNode(caller, path, 'WRITE'),
  async handle({ caller, path, body, target, deps }) {
    const present = PATCH_ATTRIBUTES.filter((name) => body[name] != null);
    const [attribute] = present;
    if (present.length !== 1 || !attribute) throw badInput('bad input');
    if (body.token === '') throw badInput(EMPTY_TOKEN);
    const problem =
      nodeTypeProblem(body.nodeType) ??
      registeredServicesProblem(body.registeredServices) ??
      sizeProblem(body);
    if (problem) throw badInput(problem);
    if (attribute === 'publicKey' && caller.kind !== 'node' && !isSuperUser(caller))
      throw accessDenied('access denied');
    const refused = (detail: string) =>
      badInput(`node '${resourceId(path)}' not inserted or updated: ${detail}`);
    const reference =
      (body.pattern ? await patternProblem(caller, path.organization, body.pattern) : undefined) ??
      (body.userInput ? await userInputProblem(caller, path.organization, body.userInput) : undefined);
    if (reference) throw refused(reference);
    const tokenHash = body.token ? await hashCredential(body.token) : undefined;
    const change = { ...patchChange(body, attribute, tokenHash), lastUpdated: isoTimestamp(deps.clock) };
    const saved = await saveNode({ org: path.organization, id: path.node, changes: change }, target, {
      reread: () => authorizeNode(caller, path, 'WRITE'),
      checkExisting: (node) => {
        if (body.publicKey && node.publicKey)
          throw refused("A node's public key cannot be replaced with a different key.");
        if (body.token && node.publicKey) throw refused(publicKeyNotToken(resourceId(path)));
        // A registered policy node cannot switch to a pattern (upstream, docs/exchange.md#node-patch; root may).
        if (body.pattern && node.publicKey && !node.pattern && !isSuperUser(caller))
          throw refused('a node registered without a pattern cannot be given one; unregister it first');
      },
      checkCreate: () => undefined,
    });
    if (saved.outcome === 'missing') throw nodeNotFound(path);
    if (saved.outcome === 'conflict') throw nodeConflict(path);
    return ok(`attribute '${attribute}' of node '${resourceId(path)}' updated`);
  },
});

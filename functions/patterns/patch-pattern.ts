import { checkSecretBindings } from '#functions/catalog/shared/secret-bindings';
import { endpoint } from '#functions/endpoint';
import { sizeProblem } from '#functions/nodes/rules';
import { badInput } from '#lib/http/errors';
import { ok } from '#lib/http/responses';
import { isoTimestamp } from '#lib/time';
import { PATCHABLE } from '#tables/pattern/records';
import { patternsRoutes } from './routes.ts';
import { authorizePattern, patternId, patternNotFound } from './shared/access.ts';
import { storedServices } from './shared/pattern-view.ts';
import { mayBePublic, missingReference, servicesProblem } from './shared/rules.ts';
import { updatePattern } from './shared/update-pattern.ts';

/**
 * PATCH /v1/orgs/{organization}/patterns/{pattern}: as PUT. Applies the first attribute present in
 * upstream's order (docs/exchange-catalog.md#pattern-routes); `{}` → 400. Services and userInput must reference existing services;
 * `public: true` only in an org of type IBM. Unlike upstream, services may not become empty and
 * clusterNamespace is patched on this pattern (docs/compatibility.md).
 */
export const handler = endpoint(patternsRoutes.operations.patchPattern, {
  authorize: ({ caller, path }) => authorizePattern(caller, path, 'WRITE'),
  async handle({ caller, path, body, target, deps }) {
    const attribute = PATCHABLE.find((name) => body[name] !== undefined && body[name] !== null);
    if (!attribute) throw badInput('no valid pattern attribute specified');
    if (!target) throw patternNotFound(path);
    const problem = (body.services ? servicesProblem(body.services) : undefined) ?? sizeProblem(body);
    if (problem) throw badInput(problem);
    const id = patternId(path);
    const services = attribute === 'services' ? (body.services ?? []) : [];
    const missing = await missingReference(services, attribute === 'userInput' ? (body.userInput ?? []) : []);
    if (missing) throw badInput(`pattern '${id}' not updated: ${missing}`);
    if (attribute === 'secretBinding') {
      const refused = `pattern '${id}' not updated`;
      await checkSecretBindings(caller, target.owner, path.organization, body.secretBinding, refused);
    }
    if (attribute === 'public' && body.public && !(await mayBePublic(path.organization)))
      throw badInput(`pattern '${id}' not updated: only IBM patterns can be made public`);
    const value = attribute === 'services' ? storedServices(services, false) : body[attribute];
    const lastUpdated = isoTimestamp(deps.clock);
    await updatePattern(
      caller,
      path,
      target,
      (current) => ({ ...current, [attribute]: value, lastUpdated }),
      'modified',
    );
    return ok(`attribute '${attribute}' of pattern '${id}' updated`);
  },
});

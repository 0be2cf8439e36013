import { checkSecretBindings } from '#functions/catalog/shared/secret-bindings';
import { endpoint } from '#functions/endpoint';
import { sizeProblem } from '#functions/nodes/rules';
import { accessDenied, badInput, HttpError, notFound } from '#lib/http/errors';
import { ok } from '#lib/http/responses';
import { isoTimestamp } from '#lib/time';
import { createPattern } from '#tables/pattern/records';
import { patternsRoutes } from './routes.ts';
import { authorizePatternAccess, patternId } from './shared/access.ts';
import { storedPattern } from './shared/pattern-view.ts';
import { mayBePublic, missingReference, servicesProblem } from './shared/rules.ts';

/**
 * POST /v1/orgs/{organization}/patterns/{pattern} (and .../deployment/patterns/...): users and
 * admins of the org, root. Validates in upstream's order (docs/exchange-catalog.md#pattern-body), applies the public rule and the
 * owner's limit, then creates the pattern owned by the caller; a duplicate is 403 already-exists.
 */
export const handler = endpoint(patternsRoutes.operations.postPattern, {
  authorize: ({ caller, path }) =>
    authorizePatternAccess(caller, path.organization, path.pattern, 'CREATE', {}),
  async handle({ caller, path, body, deps }) {
    const problem = servicesProblem(body.services) ?? sizeProblem(body);
    if (problem) throw badInput(problem);
    const id = patternId(path);
    const missing = await missingReference(body.services, body.userInput ?? []);
    if (missing) throw badInput(`pattern '${id}' not created: ${missing}`);
    const refused = `pattern '${id}' not created`;
    await checkSecretBindings(caller, caller.fullId, path.organization, body.secretBinding, refused);
    if (body.public && !(await mayBePublic(path.organization)))
      throw badInput(`pattern '${id}' not created: only IBM patterns can be made public`);
    const record = storedPattern(
      path.organization,
      path.pattern,
      caller.fullId,
      body,
      isoTimestamp(deps.clock),
    );
    const maxOwned = deps.config().limits.maxPatterns;
    const outcome = await createPattern(record, maxOwned);
    if (outcome === 'exists') throw new HttpError(403, 'already-exists', `pattern '${id}' already exists`);
    if (outcome === 'over-limit')
      throw accessDenied(`Access Denied: you are over the limit of ${maxOwned} patterns`);
    if (outcome === 'no-org') throw notFound(`org '${path.organization}' not found`);
    return ok(`pattern '${id}' created`);
  },
});

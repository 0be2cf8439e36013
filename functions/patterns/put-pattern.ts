import { checkSecretBindings } from '#functions/catalog/shared/secret-bindings';
import { endpoint } from '#functions/endpoint';
import { sizeProblem } from '#functions/nodes/rules';
import { badInput } from '#lib/http/errors';
import { ok } from '#lib/http/responses';
import { isoTimestamp } from '#lib/time';
import { patternsRoutes } from './routes.ts';
import { authorizePattern, patternId, patternNotFound } from './shared/access.ts';
import { storedPattern } from './shared/pattern-view.ts';
import { mayBePublic, missingReference, servicesProblem } from './shared/rules.ts';
import { updatePattern } from './shared/update-pattern.ts';

/**
 * PUT /v1/orgs/{organization}/patterns/{pattern}: the owner, org admins, root. Update only
 * (missing → 404); replaces the whole pattern and, as upstream, makes the caller its owner.
 */
export const handler = endpoint(patternsRoutes.operations.putPattern, {
  authorize: ({ caller, path }) => authorizePattern(caller, path, 'WRITE'),
  async handle({ caller, path, body, target, deps }) {
    if (!target) throw patternNotFound(path);
    const problem = servicesProblem(body.services) ?? sizeProblem(body);
    if (problem) throw badInput(problem);
    const id = patternId(path);
    const missing = await missingReference(body.services, body.userInput ?? []);
    if (missing) throw badInput(`pattern '${id}' not updated: ${missing}`);
    // The caller becomes the owner, so the caller alone must be entitled to the bindings.
    const refused = `pattern '${id}' not updated`;
    await checkSecretBindings(caller, caller.fullId, path.organization, body.secretBinding, refused);
    if ((body.public || target.public) && !(await mayBePublic(path.organization)))
      throw badInput(`pattern '${id}' not updated: only IBM patterns can be made public`);
    const next = storedPattern(
      path.organization,
      path.pattern,
      caller.fullId,
      body,
      isoTimestamp(deps.clock),
    );
    await updatePattern(caller, path, target, () => next, 'created/modified');
    return ok('pattern updated');
  },
});

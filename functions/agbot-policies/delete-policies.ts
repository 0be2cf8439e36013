import { authorizeServedWrite } from '#functions/agbot-patterns/served-access';
import { agbotId } from '#functions/agbots/access';
import { endpoint } from '#lib/http/endpoint';
import { notFound } from '#lib/http/errors';
import { noContent } from '#lib/http/responses';
import { deleteAgbotPolicies } from '#tables/agbot/policy-records';
import { policiesPath } from './schemas.ts';

/** DELETE .../agbots/{agreementbot}/deployment/policies: every served policy; none → 404. */
export const handler = endpoint({
  path: policiesPath,
  authorize: ({ caller, path }) => authorizeServedWrite(caller, path),
  async handle({ path }) {
    if ((await deleteAgbotPolicies(path.organization, path.agreementbot)) === 0) {
      throw notFound(`no business policies for agbot '${agbotId(path)}' found`);
    }
    return noContent();
  },
});

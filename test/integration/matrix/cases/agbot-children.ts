import { seedDeploymentPolicy, seedPattern } from '#test/support/catalog';
import type { Credentials } from '#test/support/http';
import type { CallerKey, EndpointCases, Prepared, World } from '#test/support/matrix';
import { freshId } from '#test/support/world';
import { agbotPath, expectOk, once, ownerOrAgbot, sameAgbot, throwawayAgbot } from './agbot-fixtures.ts';

/**
 * What belongs to an agbot — agreements (docs/exchange.md#agbot-agreements), served deployment patterns (docs/exchange.md#served-patterns-and-policies)
 * and policies (docs/exchange.md#served-patterns-and-policies) — all for whoever may write the agbot. Reads use children of agbot1
 * made once; writes work on a throwaway agbot.
 */
const AGREEMENT = { service: { orgid: 'o', pattern: 'p', url: 'u' }, state: 'signed' };

/** The pattern `pat` and deployment policy `pol` the agbots serve (a served one must exist). */
const servable = once(async (w: World) => {
  await seedPattern(w.same.org, 'pat');
  await seedDeploymentPolicy(w.same.org, 'pol');
});

/** agbot1's agreement, served pattern and served policy, made once by its owner. */
const agbot1Children = once(async (w: World) => {
  await servable(w);
  const base = agbotPath(w.same.agbot.user);
  const agreement = freshId('agr');
  await expectOk(w, 'PUT', `${base}/agreements/${agreement}`, AGREEMENT, 201);
  await expectOk(w, 'POST', `${base}/deployment/patterns`, { patternOrgid: w.same.org, pattern: 'pat' }, 201);
  const policy = { businessPolOrgid: w.same.org, businessPol: 'pol' };
  await expectOk(w, 'POST', `${base}/deployment/policies`, policy, 201);
  return { agreement, pattern: `${w.same.org}_pat`, policy: `${w.same.org}_pol` };
});

/** A throwaway agbot with one agreement, one served pattern and one served policy. */
async function throwawayWithChildren(w: World, caller: CallerKey) {
  await servable(w);
  const prepared = await throwawayAgbot(w, caller);
  const agreement = freshId('agr');
  await expectOk(w, 'PUT', `${prepared.path}/agreements/${agreement}`, AGREEMENT, 201);
  await expectOk(
    w,
    'POST',
    `${prepared.path}/deployment/patterns`,
    { patternOrgid: w.same.org, pattern: 'pat' },
    201,
  );
  const policy = { businessPolOrgid: w.same.org, businessPol: 'pol' };
  await expectOk(w, 'POST', `${prepared.path}/deployment/policies`, policy, 201);
  return { ...prepared, agreement, pattern: `${w.same.org}_pat`, policy: `${w.same.org}_pol` };
}

const onAgbot1 = async (
  w: World,
  caller: CallerKey,
  child: (c: Awaited<ReturnType<typeof agbot1Children>>) => string,
) => {
  const prepared = sameAgbot(w, caller);
  return { ...prepared, path: `${prepared.path}${child(await agbot1Children(w))}` };
};

const onThrowaway = async (
  w: World,
  caller: CallerKey,
  child: (c: Awaited<ReturnType<typeof throwawayWithChildren>>) => string,
): Promise<Prepared> => {
  const prepared = await throwawayWithChildren(w, caller);
  return { path: `${prepared.path}${child(prepared)}`, as: prepared.as };
};

/** Whose agreement an agreement confirmation can find: the owning user's and its agbots'. */
const confirmCredentials = (w: World, caller: CallerKey): Credentials | undefined =>
  caller === 'agbot (itself)'
    ? w.same.agbot
    : caller === 'agbot (same org, another)'
      ? w.same.agbot2
      : undefined;

export const agreementCases: EndpointCases[] = [
  {
    operation: 'GET /v1/orgs/{organization}/agbots/{agreementbot}/agreements',
    prepare: (w, caller) => onAgbot1(w, caller, () => '/agreements'),
    expect: ownerOrAgbot(200),
  },
  {
    operation: 'GET /v1/orgs/{organization}/agbots/{agreementbot}/agreements/{agreement}',
    prepare: (w, caller) => onAgbot1(w, caller, (c) => `/agreements/${c.agreement}`),
    expect: ownerOrAgbot(200),
  },
  {
    operation: 'PUT /v1/orgs/{organization}/agbots/{agreementbot}/agreements/{agreement}',
    prepare: async (w, caller) => ({
      ...(await onThrowaway(w, caller, () => `/agreements/${freshId('agr')}`)),
      body: AGREEMENT,
    }),
    expect: ownerOrAgbot(201),
  },
  {
    operation: 'DELETE /v1/orgs/{organization}/agbots/{agreementbot}/agreements/{agreement}',
    prepare: (w, caller) => onThrowaway(w, caller, (c) => `/agreements/${c.agreement}`),
    expect: ownerOrAgbot(204),
  },
  {
    operation: 'DELETE /v1/orgs/{organization}/agbots/{agreementbot}/agreements',
    prepare: (w, caller) => onThrowaway(w, caller, () => '/agreements'),
    expect: ownerOrAgbot(204),
  },
  {
    // "an agbot or a user": 201 only for the owner of the agreement's agbot and that owner's
    // agbots; other callers who may ask get 404 "not found or not active"; nodes 403.
    operation: 'POST /v1/orgs/{organization}/agreements/confirm',
    prepare: async (w, caller) => ({
      path: `/v1/orgs/${w.same.org}/agreements/confirm`,
      body: { agreementId: (await agbot1Children(w)).agreement },
      as: confirmCredentials(w, caller),
    }),
    expect: {
      root: 404,
      'hub admin': 404,
      'org admin (same org)': 404,
      'org admin (other org)': 403,
      'user (same org, owner)': 201,
      'user (same org, not owner)': 404,
      'user (other org)': 403,
      'node (same org)': 403,
      'node (other org)': 403,
      'agbot (itself)': 201,
      'agbot (same org, another)': 404,
      'agbot (other org)': 403,
    },
  },
];

const servedCases = (kind: 'patterns' | 'policies', body: (w: World) => unknown): EndpointCases[] => {
  const base = `/v1/orgs/{organization}/agbots/{agreementbot}/deployment/${kind}`;
  const param = kind === 'patterns' ? '{deploymentpattern}' : '{deploymentpolicy}';
  const one = (c: { pattern: string; policy: string }) => (kind === 'patterns' ? c.pattern : c.policy);
  return [
    {
      operation: `GET ${base}`,
      prepare: (w, caller) => onAgbot1(w, caller, () => `/deployment/${kind}`),
      expect: ownerOrAgbot(200),
    },
    {
      operation: `GET ${base}/${param}`,
      prepare: (w, caller) => onAgbot1(w, caller, (c) => `/deployment/${kind}/${one(c)}`),
      expect: ownerOrAgbot(200),
    },
    {
      operation: `POST ${base}`,
      prepare: async (w, caller) => {
        const prepared = await throwawayAgbot(w, caller);
        return { ...prepared, path: `${prepared.path}/deployment/${kind}`, body: body(w) };
      },
      expect: ownerOrAgbot(201),
    },
    {
      operation: `DELETE ${base}/${param}`,
      prepare: (w, caller) => onThrowaway(w, caller, (c) => `/deployment/${kind}/${one(c)}`),
      expect: ownerOrAgbot(204),
    },
    {
      operation: `DELETE ${base}`,
      prepare: (w, caller) => onThrowaway(w, caller, () => `/deployment/${kind}`),
      expect: ownerOrAgbot(204),
    },
  ];
};

// Each POST goes to a throwaway agbot of the org, serving all of its org's patterns or policies
// (a named one must exist; what an agbot may serve is tested in test/integration/agbot-*).
export const patternCases = servedCases('patterns', (w) => ({ patternOrgid: w.same.org, pattern: '*' }));
export const policyCases = servedCases('policies', (w) => ({
  businessPolOrgid: w.same.org,
  businessPol: '*',
}));

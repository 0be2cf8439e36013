/**
 * Privileged services (reference §1.4 check 11): a service whose deployment asks for
 * `privileged: true` or `network: host` (itself or a dependency) may only run on a node that
 * allows it. Upstream nodes publish `openhorizon.allowPrivileged`, ours `platform.allowPrivileged`
 * (spec: built-in node properties are `platform.*`); both are honoured so either agent can accept.
 */
import type { Deployment } from './deployment.ts';
import type { Property } from './policy-document.ts';

export const UPSTREAM_ALLOW_PRIVILEGED = 'openhorizon.allowPrivileged';
export const PLATFORM_ALLOW_PRIVILEGED = 'platform.allowPrivileged';

/**
 * The consumer constraint added when the service needs privilege. Upstream writes
 * `openhorizon.allowPrivileged = true`; the `||` keeps it satisfiable by our agent's property too.
 */
export const PRIVILEGED_CONSTRAINT = `${UPSTREAM_ALLOW_PRIVILEGED} = true || ${PLATFORM_ALLOW_PRIVILEGED} = true`;

/**
 * Whether a deployment runs any container privileged or on the host network. The deployment is
 * parsed once, by the agent's parser (`parseDeployment`), wherever it is read.
 */
export const deploymentNeedsPrivilege = (deployment: Deployment): boolean =>
  Object.values(deployment.services).some((s) => s.privileged === true || s.network === 'host');

/** Whether the node's properties allow privileged services (either spelling, boolean or "true"). */
export const nodeAllowsPrivilege = (properties: readonly Property[]): boolean =>
  properties.some(
    (p) =>
      (p.name === UPSTREAM_ALLOW_PRIVILEGED || p.name === PLATFORM_ALLOW_PRIVILEGED) &&
      (p.value === true || p.value === 'true'),
  );

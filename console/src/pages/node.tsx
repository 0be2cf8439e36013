import {
  api,
  type ManagementStatuses,
  maybe,
  type NodeAgreements,
  type NodeChanges,
  type NodeErrors,
  type NodePolicy,
  type NodeStatus,
  type NodeSummariesResponse,
  type Nodes,
  seg,
} from '../api.ts';
import { ago, href, type PageProps, useData } from '../state.ts';
import { StateBadge } from '../states.tsx';
import { ManagementStatus, RecentChanges } from './node-activity.tsx';

/** What to do about an error the agent surfaced, by its event code (upstream anax's codes). */
const HINTS: Record<string, string> = {
  image_load_failed:
    'The image could not be pulled: check the image name, the registry credentials (service dockauths) and the node’s network.',
  failed_start_container:
    'The container did not start: read its logs on the node (docker logs) and the service’s userInput.',
  error_in_deployment_config: 'The service’s deployment string is invalid: fix and republish the service.',
  failed_verify_deployment:
    'The deployment signature did not verify: republish the service signed with a key the node trusts.',
  secret_binding_failed:
    'A bound secret could not be delivered: check that the secret exists and the policy’s secretBinding names it.',
};

const hintFor = (error: Record<string, unknown>): string =>
  HINTS[String(error.event_code ?? '')] ?? 'See the node’s event log (hzn eventlog list) for details.';

/**
 * Node: its summary, properties and constraints, agreements, containers, errors with what to do,
 * its agent upgrade jobs and its recent changes.
 */
export function Node({ route, tick }: PageProps) {
  const fullId = route.rest.join('/');
  const [org = '', ...rest] = fullId.split('/');
  const id = rest.join('/');
  const base = `/v1/orgs/${seg(org)}/nodes/${seg(id)}`;
  const { data, error } = useData(async () => {
    const page = await api<NodeSummariesResponse>(
      'GET',
      `/v1/console/orgs/${seg(org)}/nodes?prefix=${seg(id)}&limit=1`,
    );
    const summary = page.nodes.find((n) => n.id === fullId);
    // Agreements and errors only where the summary counts some (upstream answers none with a 404).
    const [nodes, policy, agreements, status, errors, management, changes] = await Promise.all([
      api<Nodes>('GET', base),
      maybe<NodePolicy>(`${base}/policy`),
      summary?.agreements ? maybe<NodeAgreements>(`${base}/agreements`) : undefined,
      maybe<NodeStatus>(`${base}/status`),
      summary?.errors ? maybe<NodeErrors>(`${base}/errors`) : undefined,
      maybe<ManagementStatuses>(`${base}/managementStatus`),
      maybe<NodeChanges>(`/v1/console/orgs/${seg(org)}/nodes/${seg(id)}/changes`),
    ]);
    const node = nodes.nodes[fullId];
    return { summary, node, policy, agreements, status, errors, management, changes };
  }, [fullId, tick]);
  if (error) return <p role="alert">{error}</p>;
  if (!data) return <p aria-busy="true">Loading…</p>;
  const { summary, node, policy, agreements, status, errors, management, changes } = data;
  return (
    <section aria-labelledby="node-title">
      <p>
        <a href={href('nodes')}>← Nodes</a>
      </p>
      <h1 id="node-title">{fullId}</h1>
      {summary ? (
        <dl class="facts" data-testid="node-facts">
          <dt>State</dt>
          <dd>
            <StateBadge state={summary.state} /> (interval {summary.heartbeatSeconds} s)
          </dd>
          <dt>Last heartbeat</dt>
          <dd title={summary.lastHeartbeat ?? ''}>
            {summary.connected ? 'signal connection open' : ago(summary.lastHeartbeat)}
          </dd>
          <dt>Architecture</dt>
          <dd>{summary.arch || '-'}</dd>
          <dt>Agent version</dt>
          <dd>{summary.agentVersion || '-'}</dd>
          <dt>Deployment</dt>
          <dd>{summary.pattern ? `pattern ${summary.pattern}` : 'policy'}</dd>
          <dt>Owner</dt>
          <dd>{summary.owner}</dd>
          <dt>Type</dt>
          <dd>{node?.nodeType ?? summary.nodeType}</dd>
        </dl>
      ) : null}
      <h2>Errors</h2>
      {errors?.errors.length ? (
        <ul data-testid="node-errors">
          {errors.errors.map((raw, index) => {
            const entry = (raw ?? {}) as Record<string, unknown>;
            return (
              <li key={index}>
                <strong>{String(entry.event_code ?? 'error')}</strong>: {String(entry.message ?? '')}
                <div class="hint">What to do: {hintFor(entry)}</div>
              </li>
            );
          })}
        </ul>
      ) : (
        <p>None reported.</p>
      )}
      <h2>Agreements</h2>
      {agreements && Object.keys(agreements.agreements).length ? (
        <table>
          <thead>
            <tr>
              <th scope="col">Agreement</th>
              <th scope="col">Services</th>
              <th scope="col">State</th>
              <th scope="col">Updated</th>
            </tr>
          </thead>
          <tbody>
            {Object.entries(agreements.agreements).map(([agreementId, agreement]) => (
              <tr key={agreementId}>
                <th scope="row">{agreementId.slice(0, 12)}</th>
                <td>{agreement.services.map((s) => `${s.orgid}/${s.url}`).join(', ')}</td>
                <td>{agreement.state}</td>
                <td>{ago(agreement.lastUpdated)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p>None.</p>
      )}
      <h2>Containers</h2>
      {status?.services.length ? (
        <table>
          <thead>
            <tr>
              <th scope="col">Service</th>
              <th scope="col">Version</th>
              <th scope="col">Container</th>
              <th scope="col">State</th>
            </tr>
          </thead>
          <tbody>
            {status.services.flatMap((service) =>
              service.containerStatus.map((container) => (
                <tr key={`${service.agreementId}/${container.name}`}>
                  <th scope="row">{`${service.orgid}/${service.serviceUrl}`}</th>
                  <td>{service.version}</td>
                  <td>{container.name}</td>
                  <td>{container.state}</td>
                </tr>
              )),
            )}
          </tbody>
        </table>
      ) : (
        <p>No status reported.</p>
      )}
      <h2>Policy</h2>
      {policy ? (
        <>
          <h3>Properties</h3>
          <ul>
            {(policy.deployment?.properties ?? policy.properties ?? []).map((p) => (
              <li key={p.name}>
                {p.name} = {JSON.stringify(p.value)}
              </li>
            ))}
          </ul>
          <h3>Constraints</h3>
          <ul>
            {(policy.deployment?.constraints ?? policy.constraints ?? []).map((c) => (
              <li key={c}>
                <code>{c}</code>
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p>No node policy.</p>
      )}
      <h2>Management (agent upgrades)</h2>
      <ManagementStatus statuses={management} />
      <h2>Recent changes</h2>
      <RecentChanges changes={changes} />
      <h2>From the command line</h2>
      <pre>{`hzn exchange node list ${fullId} -u ${org}/<user>\nhzn deploycheck all -n ${fullId}`}</pre>
    </section>
  );
}

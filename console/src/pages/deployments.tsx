import { useState } from 'preact/hooks';
import { ApiError, api, type DeploymentRow, type Deployments as DeploymentsPage, seg } from '../api.ts';
import { Funnel } from '../charts.tsx';
import { ago, href, type PageProps, useData } from '../state.ts';

/** Which control action the operator took last (the agbot applies them in sequence order). */
function lastAction(rollout: NonNullable<DeploymentRow['rollout']>): string | undefined {
  const control = rollout.control;
  const actions = (['pause', 'resume', 'promote', 'abort'] as const)
    .map((name) => ({ name, seq: control[name]?.seq ?? 0 }))
    .filter((action) => action.seq > 0)
    .sort((a, b) => b.seq - a.seq);
  return actions[0]?.name;
}

/** A row's element ids: a policy and a pattern may share a name. */
const keyOf = (row: DeploymentRow) => (row.kind === 'policy' ? row.name : `pattern-${row.name}`);

/**
 * Deployments: per deployment policy and pattern, matched → proposed → agreed → running (and
 * failing), why skipped nodes get nothing, and the rollout's waves with the operator's actions
 * where a rollout exists. One request a page (GET /v1/console/orgs/{org}/deployments).
 */
export function Deployments({ me, org, route, tick }: PageProps) {
  const [notice, setNotice] = useState('');
  const after = route.params.get('after') ?? '';
  const { data, error, reload } = useData(
    () =>
      api<DeploymentsPage>(
        'GET',
        `/v1/console/orgs/${seg(org)}/deployments${after ? `?after=${seg(after)}` : ''}`,
      ),
    [org, after, tick],
  );

  const act = async (policy: string, verb: 'pause' | 'resume' | 'promote' | 'abort') => {
    try {
      await api('POST', `/v1/orgs/${seg(org)}/business/policies/${seg(policy)}/rollout/${verb}`, {});
      setNotice(`${verb} recorded for ${policy}; the agbot applies it at its next round.`);
    } catch (failure) {
      setNotice(failure instanceof ApiError ? failure.message : String(failure));
    }
    reload();
  };

  if (error) return <p role="alert">{error}</p>;
  if (!data) return <p aria-busy="true">Loading…</p>;
  return (
    <section aria-labelledby="deployments-title">
      <h1 id="deployments-title">Deployments</h1>
      {notice ? <p role="status">{notice}</p> : null}
      {data.deployments.length === 0 ? <p>No deployment policies or patterns.</p> : null}
      {data.deployments.map((status) => {
        const { name, rollout } = status;
        const id = keyOf(status);
        const reasons = new Map<string, string[]>();
        for (const skip of status.skipped)
          reasons.set(skip.reason, [...(reasons.get(skip.reason) ?? []), skip.node]);
        const last = rollout ? lastAction(rollout) : undefined;
        return (
          <article key={id} class="deployment" data-testid={`deployment-${id}`} aria-labelledby={`dep-${id}`}>
            <h2 id={`dep-${id}`}>
              {name}
              {status.kind === 'pattern' ? <span class="muted"> (pattern)</span> : null}
            </h2>
            {status.served.length > 0 ? (
              <>
                <dl class="counts">
                  {(['matched', 'proposed', 'agreed', 'running', 'failing'] as const).map((key) => (
                    <div key={key}>
                      <dt>{key}</dt>
                      <dd data-testid={`${key}-${id}`}>{status[key]}</dd>
                    </div>
                  ))}
                  <div>
                    <dt>skipped</dt>
                    <dd data-testid={`skipped-${id}`}>{status.skipped.length}</dd>
                  </div>
                </dl>
                <Funnel
                  parts={[
                    { label: 'matched', count: status.matched, kind: 'matched' },
                    { label: 'proposed', count: status.proposed, kind: 'proposed' },
                    { label: 'agreed', count: status.agreed, kind: 'agreed' },
                    { label: 'running', count: status.running, kind: 'running' },
                    { label: 'failing', count: status.failing, kind: 'failing' },
                  ]}
                />
                {status.lastSearch ? (
                  <p class="muted">
                    Last search {ago(status.lastSearch.at)}: {status.lastSearch.found} found,{' '}
                    {status.lastSearch.matched} matched, {status.lastSearch.skipped} skipped
                  </p>
                ) : null}
                {reasons.size > 0 ? (
                  <>
                    <h3>Why do these nodes get nothing?</h3>
                    <ul data-testid={`skips-${id}`}>
                      {[...reasons].map(([reason, nodes]) => (
                        <li key={reason}>
                          <strong>{nodes.length}</strong> node{nodes.length === 1 ? '' : 's'}: {reason}{' '}
                          <span class="muted">
                            (
                            {nodes.slice(0, 5).map((node, index) => (
                              <>
                                {index > 0 ? ', ' : ''}
                                <a href={href('node', [node])}>{node}</a>
                              </>
                            ))}
                            {nodes.length > 5 ? ', …' : ''})
                          </span>
                        </li>
                      ))}
                    </ul>
                  </>
                ) : null}
              </>
            ) : (
              <p class="muted">The agbot has no status for it yet.</p>
            )}
            {rollout ? (
              <div class="rollout" data-testid={`rollout-${id}`}>
                <h3>Rollout</h3>
                {rollout.statuses.map((s) => (
                  <p key={s.agbot}>
                    {s.agbot}: <strong data-testid={`rollout-state-${id}`}>{s.state}</strong>
                    {s.wave ? ` — wave ${s.wave.index + 1} of ${s.wave.of} (${s.wave.name})` : ''};{' '}
                    {s.counts.targeted} targeted
                  </p>
                ))}
                <p>
                  Last action: <span data-testid={`rollout-last-${id}`}>{last ?? 'none'}</span>
                </p>
                {me.can.controlRollouts ? (
                  <div class="actions" data-testid={`rollout-actions-${id}`}>
                    {(['pause', 'resume', 'promote', 'abort'] as const).map((verb) => (
                      <button key={verb} type="button" onClick={() => act(name, verb)}>
                        {verb[0]?.toUpperCase()}
                        {verb.slice(1)}
                      </button>
                    ))}
                  </div>
                ) : null}
              </div>
            ) : null}
          </article>
        );
      })}
      {data.next ? (
        <p>
          <a href={href('deployments', [], { after: data.next })} data-testid="deployments-next">
            Next page
          </a>
        </p>
      ) : null}
    </section>
  );
}

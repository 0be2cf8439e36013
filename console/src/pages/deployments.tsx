import { useState } from 'preact/hooks';
import {
  ApiError,
  api,
  maybe,
  type Policies,
  type PolicyStatus,
  type Rollout,
  type RolloutStatuses,
  seg,
} from '../api.ts';
import { Funnel } from '../charts.tsx';
import { ago, href, type PageProps, useData } from '../state.ts';

interface Row {
  name: string;
  status: PolicyStatus | undefined;
  rollout: Rollout | undefined;
  rolloutStatus: RolloutStatuses | undefined;
}

/** Which control action the operator took last (the agbot applies them in sequence order). */
function lastAction(rollout: Rollout): string | undefined {
  const control = rollout.control;
  const actions = (['pause', 'resume', 'promote', 'abort'] as const)
    .map((name) => ({ name, seq: control[name]?.seq ?? 0 }))
    .filter((action) => action.seq > 0)
    .sort((a, b) => b.seq - a.seq);
  return actions[0]?.name;
}

/**
 * Deployments: per deployment policy and pattern service the agbot serves, matched → proposed →
 * agreed → running (and failing), why skipped nodes get nothing, and the rollout's waves with the
 * operator's actions where a rollout exists.
 */
export function Deployments({ me, org, tick }: PageProps) {
  const [notice, setNotice] = useState('');
  const { data, error, reload } = useData(async (): Promise<Row[]> => {
    const [served, policies] = await Promise.all([
      maybe<Record<string, string[]>>(`/v1/orgs/${seg(org)}/agbotstatus/policies`),
      maybe<Policies>(`/v1/orgs/${seg(org)}/business/policies`),
    ]);
    const names = new Set<string>([
      ...(served?.[org] ?? []),
      ...Object.keys(policies?.businessPolicy ?? {}).map((id) => id.slice(org.length + 1)),
    ]);
    return Promise.all(
      [...names].sort().map(async (name) => {
        const isPolicy = Boolean(policies?.businessPolicy[`${org}/${name}`]);
        const rolloutBase = `/v1/orgs/${seg(org)}/business/policies/${seg(name)}/rollout`;
        const [status, rollout, rolloutStatus] = await Promise.all([
          maybe<PolicyStatus>(`/v1/orgs/${seg(org)}/agbotstatus/policies/${seg(name)}`),
          isPolicy ? maybe<Rollout>(rolloutBase) : undefined,
          isPolicy ? maybe<RolloutStatuses>(`${rolloutBase}/status`) : undefined,
        ]);
        return { name, status, rollout, rolloutStatus };
      }),
    );
  }, [org, tick]);

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
      {data.length === 0 ? <p>No deployment policies or patterns served.</p> : null}
      {data.map(({ name, status, rollout, rolloutStatus }) => {
        const reasons = new Map<string, string[]>();
        for (const skip of status?.skipped ?? [])
          reasons.set(skip.reason, [...(reasons.get(skip.reason) ?? []), skip.node]);
        const last = rollout ? lastAction(rollout) : undefined;
        return (
          <article
            key={name}
            class="deployment"
            data-testid={`deployment-${name}`}
            aria-labelledby={`dep-${name}`}
          >
            <h2 id={`dep-${name}`}>
              {name}
              {status?.pattern ? <span class="muted"> (pattern {status.pattern})</span> : null}
            </h2>
            {status ? (
              <>
                <dl class="counts">
                  {(['matched', 'proposed', 'agreed', 'running', 'failing'] as const).map((key) => (
                    <div key={key}>
                      <dt>{key}</dt>
                      <dd data-testid={`${key}-${name}`}>{status[key]}</dd>
                    </div>
                  ))}
                  <div>
                    <dt>skipped</dt>
                    <dd data-testid={`skipped-${name}`}>{status.skipped.length}</dd>
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
                    <ul data-testid={`skips-${name}`}>
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
              <div class="rollout" data-testid={`rollout-${name}`}>
                <h3>Rollout</h3>
                {(rolloutStatus?.statuses ?? []).map((s) => (
                  <p key={s.agbot}>
                    {s.agbot}: <strong data-testid={`rollout-state-${name}`}>{s.state}</strong>
                    {s.wave ? ` — wave ${s.wave.index + 1} of ${s.wave.of} (${s.wave.name})` : ''};{' '}
                    {s.counts.targeted} targeted
                  </p>
                ))}
                <p>
                  Last action: <span data-testid={`rollout-last-${name}`}>{last ?? 'none'}</span>
                </p>
                {me.can.controlRollouts ? (
                  <div class="actions" data-testid={`rollout-actions-${name}`}>
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
    </section>
  );
}

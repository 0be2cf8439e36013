import { useEffect, useRef } from 'preact/hooks';
import { api, type FleetSummary, seg } from '../api.ts';
import { Bars, Histogram } from '../charts.tsx';
import { ago, href, type PageProps, REFRESH_MS, useData } from '../state.ts';
import { STATE_LABELS, StateLegend } from '../states.tsx';

const bars = (counts: Record<string, number>, param: string) =>
  Object.entries(counts)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 8)
    .map(([label, count]) => ({ label, count, href: href('nodes', [], { [param]: label }) }));

/** Fleet: the org's nodes in numbers (one request, counts only), each number a link to its nodes. */
export function Fleet({ org, tick }: PageProps) {
  // The first render takes the last summary kept, however old (a day at most; it says when it was
  // computed), then asks for a fresh one: an org of 10,000 nodes shows at once.
  const first = useRef(true);
  const { data, error, reload } = useData(() => {
    const query = first.current ? '?maxAge=86400' : '';
    first.current = false;
    return api<FleetSummary>('GET', `/v1/console/orgs/${seg(org)}/fleet${query}`);
  }, [org, tick]);
  useEffect(() => {
    if (data && Date.now() - Date.parse(data.at) > REFRESH_MS) reload();
  }, [data?.at]);
  if (error) return <p role="alert">{error}</p>;
  if (!data) return <p aria-busy="true">Loading…</p>;
  return (
    <section aria-labelledby="fleet-title">
      <h1 id="fleet-title">Fleet of {data.org}</h1>
      <p class="muted">
        Updated {ago(data.at)}
        {data.truncated ? ' (the first 50,000 nodes only)' : ''}
      </p>
      <ul class="tiles">
        <li>
          <a href={href('nodes')} data-testid="tile-total">
            <strong>{data.total}</strong> nodes
          </a>
        </li>
        {Object.entries(STATE_LABELS).map(([state, label]) => (
          <li key={state}>
            <a href={href('nodes', [], { state })} data-testid={`tile-${state}`} class={`state-${state}`}>
              <strong>{data.byState[state] ?? 0}</strong> {label}
            </a>
          </li>
        ))}
        <li>
          <a href={href('nodes', [], { errors: 'true' })} data-testid="tile-errors">
            <strong>{data.withErrors}</strong> with errors
          </a>
        </li>
        <li>
          <span data-testid="tile-agreements">
            <strong>{data.agreements.total}</strong> agreements
          </span>
        </li>
      </ul>
      <StateLegend />
      <div class="charts">
        <Histogram
          title="Last heartbeat"
          columns={data.lastSeen.map((b) => ({ label: b.label, count: b.count }))}
        />
        <Bars title="Architecture" bars={bars(data.byArch, 'arch')} />
        <Bars title="Agent version" bars={bars(data.byVersion, 'version')} />
        <Bars title="Pattern (- = policy)" bars={bars(data.byPattern, 'pattern')} />
      </div>
      <h2>Nodes with errors</h2>
      {data.errorNodes.length === 0 ? (
        <p>None.</p>
      ) : (
        <ul data-testid="error-nodes">
          {data.errorNodes.map((node) => (
            <li key={node.id}>
              <a href={href('node', [node.id])}>{node.id}</a>: {node.errors} error{node.errors > 1 ? 's' : ''}
              , {node.first}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

import { useState } from 'preact/hooks';
import { api, type NodeSummariesResponse, seg } from '../api.ts';
import { ago, href, type PageProps, useData } from '../state.ts';
import { STATE_LABELS, StateBadge } from '../states.tsx';

const FILTERS = ['state', 'arch', 'version', 'pattern', 'owner', 'prefix', 'errors'] as const;

/** Nodes: one page of summaries at a time, filtered on the server; filters and cursor live in the URL. */
export function Nodes({ me, org, route, tick }: PageProps) {
  const params = route.params;
  const query = new URLSearchParams();
  for (const name of [...FILTERS, 'after', 'limit']) {
    const value = params.get(name);
    if (value) query.set(name, value);
  }
  const { data, error, reload } = useData(
    () => api<NodeSummariesResponse>('GET', `/v1/console/orgs/${seg(org)}/nodes?${query}`),
    [org, query.toString(), tick],
  );
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [notice, setNotice] = useState('');
  const current = Object.fromEntries(FILTERS.map((name) => [name, params.get(name) ?? undefined])) as Filters;

  const deleteSelected = async () => {
    if (!confirm(`Delete ${selected.size} node(s)? Their agreements end.`)) return;
    let done = 0;
    for (const id of selected) {
      const [nodeOrg = org, ...name] = id.split('/');
      await api('DELETE', `/v1/orgs/${seg(nodeOrg)}/nodes/${seg(name.join('/'))}`);
      done++;
    }
    setNotice(`Deleted ${done} node(s).`);
    setSelected(new Set());
    reload();
  };

  const toggle = (id: string) => {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setSelected(next);
  };

  return (
    <section aria-labelledby="nodes-title">
      <h1 id="nodes-title">Nodes</h1>
      <FilterForm key={params.toString()} current={current} owners={me.can.writeAllNodes} />
      {notice ? <p role="status">{notice}</p> : null}
      {error ? <p role="alert">{error}</p> : null}
      {me.can.writeAllNodes ? (
        <div class="actions" data-testid="bulk-actions">
          <button type="button" disabled={selected.size === 0} onClick={deleteSelected}>
            Delete selected ({selected.size})
          </button>
        </div>
      ) : null}
      {!data ? (
        <p aria-busy="true">Loading…</p>
      ) : (
        <>
          <table data-testid="nodes-table">
            <caption>
              {data.nodes.length} node{data.nodes.length === 1 ? '' : 's'} on this page
            </caption>
            <thead>
              <tr>
                {me.can.writeAllNodes ? <th scope="col">Select</th> : null}
                <th scope="col">Node</th>
                <th scope="col">State</th>
                <th scope="col">Last heartbeat</th>
                <th scope="col">Arch</th>
                <th scope="col">Agent</th>
                <th scope="col">Pattern</th>
                <th scope="col">Agreements</th>
                <th scope="col">Errors</th>
                <th scope="col">Owner</th>
              </tr>
            </thead>
            <tbody>
              {data.nodes.map((node) => (
                <tr key={node.id}>
                  {me.can.writeAllNodes ? (
                    <td>
                      <input
                        type="checkbox"
                        aria-label={`Select ${node.id}`}
                        checked={selected.has(node.id)}
                        onChange={() => toggle(node.id)}
                      />
                    </td>
                  ) : null}
                  <th scope="row">
                    <a href={href('node', [node.id])}>{node.id}</a>
                    {node.name && node.name !== node.id.split('/')[1] ? (
                      <div class="muted">{node.name}</div>
                    ) : null}
                  </th>
                  <td>
                    <StateBadge state={node.state} />
                  </td>
                  <td title={node.lastHeartbeat ?? ''}>
                    {node.connected ? 'connected' : ago(node.lastHeartbeat)}
                  </td>
                  <td>{node.arch}</td>
                  <td>{node.agentVersion || '-'}</td>
                  <td>{node.pattern || 'policy'}</td>
                  <td>{node.agreements}</td>
                  <td title={node.firstError ?? ''}>{node.errors}</td>
                  <td>{node.owner}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <nav aria-label="Pages" class="pager">
            {params.get('after') ? <a href={href('nodes', [], current)}>First page</a> : null}
            {data.next ? (
              <a href={href('nodes', [], { ...current, after: data.next })} data-testid="next-page">
                Next page
              </a>
            ) : null}
          </nav>
        </>
      )}
    </section>
  );
}

type Filters = Record<(typeof FILTERS)[number], string | undefined>;

/**
 * The filters, as a form whose fields start from the URL (a new URL mounts a new form); submitting
 * writes them into the URL, which the page reads.
 */
function FilterForm({ current, owners }: { current: Filters; owners: boolean }) {
  const [draft, setDraft] = useState<Filters>(current);
  const field = (name: (typeof FILTERS)[number]) => ({
    name,
    value: draft[name] ?? '',
    onInput: (event: Event) =>
      setDraft({ ...draft, [name]: (event.currentTarget as HTMLInputElement).value }),
  });
  const apply = (event: Event) => {
    event.preventDefault();
    const next: Record<string, string> = {};
    for (const name of FILTERS) {
      const value = (draft[name] ?? '').trim();
      if (value) next[name] = value;
    }
    location.hash = href('nodes', [], next);
  };
  return (
    <form class="filters" onSubmit={apply} aria-label="Filter nodes">
      <label>
        State
        <select {...field('state')} onChange={field('state').onInput}>
          <option value="">any</option>
          {Object.entries(STATE_LABELS).map(([state, label]) => (
            <option key={state} value={state}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <label>
        Architecture <input {...field('arch')} size={8} />
      </label>
      <label>
        Agent version <input {...field('version')} size={8} />
      </label>
      <label>
        Pattern <input {...field('pattern')} size={12} placeholder="- for policy" />
      </label>
      {owners ? (
        <label>
          Owner <input {...field('owner')} size={12} />
        </label>
      ) : null}
      <label>
        Id starts with <input {...field('prefix')} size={12} />
      </label>
      <label>
        Errors
        <select {...field('errors')} onChange={field('errors').onInput}>
          <option value="">any</option>
          <option value="true">with errors</option>
          <option value="false">without</option>
        </select>
      </label>
      <button type="submit">Filter</button>
      <a href={href('nodes')}>Clear</a>
    </form>
  );
}

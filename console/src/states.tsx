import { LATE_INTERVALS, ONLINE_INTERVALS } from '#lib/fleet/node-state';

/** The node states and their rule, as the server computes them (lib/fleet/node-state.ts). */
export const STATE_LABELS: Record<string, string> = {
  online: 'online',
  late: 'late',
  offline: 'offline',
  'never-seen': 'never seen',
  unregistered: 'unregistered',
};

export const STATE_RULES: Record<string, string> = {
  online: `signal connection open, or last heartbeat within ${ONLINE_INTERVALS} heartbeat intervals`,
  late: `last heartbeat within ${LATE_INTERVALS} intervals`,
  offline: `no heartbeat for more than ${LATE_INTERVALS} intervals`,
  'never-seen': 'registered, no heartbeat yet',
  unregistered: 'no pattern and no public key: not registered by an agent',
};

export function StateBadge({ state }: { state: string }) {
  return (
    <span class={`badge state-${state}`} title={STATE_RULES[state]}>
      {STATE_LABELS[state] ?? state}
    </span>
  );
}

export function StateLegend() {
  return (
    <details class="legend">
      <summary>How states are computed</summary>
      <dl>
        {Object.entries(STATE_RULES).map(([state, rule]) => (
          <div key={state}>
            <dt>{STATE_LABELS[state]}</dt>
            <dd>{rule}</dd>
          </div>
        ))}
      </dl>
    </details>
  );
}

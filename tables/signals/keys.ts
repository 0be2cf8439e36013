/**
 * The signal channel's connections (tables/signals/): one item per connection (what `$disconnect`
 * and keepalives look up by connection id) and one per listener, in the node's own signal
 * partition or the one partition of every agbot's connections (what a write looks up).
 */
export const signalKeys = {
  connection: (connectionId: string) => ({ pk: `SIGNAL#${connectionId}`, sk: 'SIGNAL' }),
  nodeListener: (org: string, id: string, connectionId: string) => ({
    pk: `SIGNALS#NODE#${org}/${id}`,
    sk: connectionId,
  }),
  agbotListener: (connectionId: string) => ({ pk: 'SIGNALS#AGBOTS', sk: connectionId }),
  nodePartition: (org: string, id: string) => `SIGNALS#NODE#${org}/${id}`,
  agbotPartition: 'SIGNALS#AGBOTS',
};

import { LAST_UNREGISTRATION_KEY, type NodeSource } from '../events/eventlog.ts';
import type { Credentials } from '../exchange/client.ts';
import type { Store } from '../store/store.ts';

type ConfigState = 'configuring' | 'configured' | 'unconfiguring' | 'unconfigured';

/** The registered node as kept locally (the token never leaves the agent except toward the Exchange). */
export interface NodeRecord {
  id: string;
  organization: string;
  pattern: string;
  name: string;
  nodeType: 'device' | 'cluster';
  token: string;
  token_valid: boolean;
  token_last_valid_time: number;
  ha_group: string;
  configstate: { state: ConfigState; last_update_time: number };
}

const NODE = 'node';

export const loadNode = (store: Store) => store.get<NodeRecord>(NODE);
export const saveNode = (store: Store, node: NodeRecord) => store.set(NODE, node);
export const deleteNode = (store: Store) => store.delete(NODE);

export const credentials = (node: NodeRecord): Credentials => ({
  org: node.organization,
  id: node.id,
  token: node.token,
});

/** Registered and not on its way out: the states in which the agent works with the Exchange. */
export const isActive = (node: NodeRecord | undefined): node is NodeRecord =>
  node?.configstate.state === 'configuring' || node?.configstate.state === 'configured';

export const nodeSource = (node: NodeRecord): NodeSource => ({
  node_id: node.id,
  node_org: node.organization,
  pattern: node.pattern,
  config_state: node.configstate.state,
});

/** GET /node for a registered node (upstream's shape; the token is never shown). */
export function nodeView(node: NodeRecord) {
  return {
    id: node.id,
    organization: node.organization,
    pattern: node.pattern,
    name: node.name,
    nodeType: node.nodeType,
    clusterNamespace: null,
    token_last_valid_time: node.token_last_valid_time,
    token_valid: node.token_valid,
    ha_group: node.ha_group,
    configstate: configStateView(node),
  };
}

export const configStateView = (node: NodeRecord) => ({
  state: node.configstate.state,
  last_update_time: node.configstate.last_update_time,
});

/** Whether an unregistration has completed (and no registration has been stored since). */
export const hasUnregistered = (store: Store): boolean =>
  store.get<number>(LAST_UNREGISTRATION_KEY) !== undefined && loadNode(store) === undefined;

/** GET /node with no registration. */
export function unregisteredView(defaultId: string) {
  return {
    id: defaultId,
    organization: null,
    pattern: null,
    clusterNamespace: null,
    configstate: { state: 'unconfigured', last_update_time: 0 },
  };
}

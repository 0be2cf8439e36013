import type { NewEvent, Store, StoredEvent } from '../store/store.ts';

export type Severity = 'info' | 'warning' | 'error';

/** `event_source` of node events: the node as the action saw it. */
export interface NodeSource {
  node_id: string;
  node_org: string;
  pattern: string;
  config_state: string;
}

export interface EventLog {
  add(
    severity: Severity,
    eventCode: string,
    message: string,
    sourceType: string,
    source: object,
  ): StoredEvent;
  node(severity: Severity, eventCode: string, message: string, source: NodeSource): StoredEvent;
}

/** Writes events (timestamps in Unix seconds, as upstream); `added` hears of each (the status report). */
export function createEventLog(
  store: Store,
  now: () => number,
  added: (event: StoredEvent) => void = () => {},
): EventLog {
  const add: EventLog['add'] = (severity, eventCode, message, sourceType, source) => {
    const event: NewEvent = {
      timestamp: Math.floor(now() / 1000),
      severity,
      message,
      event_code: eventCode,
      source_type: sourceType,
      event_source: { ...source },
    };
    const stored = store.addEvent(event);
    added(stored);
    return stored;
  };
  return { add, node: (severity, code, message, source) => add(severity, code, message, 'node', source) };
}

/** Key under which the id of the last event of the previous registration is kept. */
export const LAST_UNREGISTRATION_KEY = 'eventlog.lastUnregistrationEventId';

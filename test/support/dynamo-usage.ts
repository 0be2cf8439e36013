import { dynamoClient } from '#tables/client';

/** What one DynamoDB call cost, as DynamoDB reported it (ReturnConsumedCapacity: INDEXES). */
export interface DynamoCall {
  command: string;
  readUnits: number;
  writeUnits: number;
  /** Capacity consumed on global secondary indexes (an index write shows up here). */
  indexUnits: number;
}

type Capacity = {
  CapacityUnits?: number;
  ReadCapacityUnits?: number;
  WriteCapacityUnits?: number;
  Table?: { CapacityUnits?: number; ReadCapacityUnits?: number; WriteCapacityUnits?: number };
  GlobalSecondaryIndexes?: Record<string, { CapacityUnits?: number }>;
};

/** Reads are the commands whose units are read units; everything else writes. */
const READS = /^(Get|BatchGet|Query|Scan|TransactGet)/;

function costOf(command: string, reported: Capacity[]): Omit<DynamoCall, 'command'> {
  let units = 0;
  let indexUnits = 0;
  for (const capacity of reported) {
    units += capacity.Table?.CapacityUnits ?? capacity.CapacityUnits ?? 0;
    for (const index of Object.values(capacity.GlobalSecondaryIndexes ?? {}))
      indexUnits += index.CapacityUnits ?? 0;
  }
  if (indexUnits > 0 && reported.every((c) => c.Table === undefined)) units -= indexUnits;
  return READS.test(command)
    ? { readUnits: units, writeUnits: 0, indexUnits }
    : { readUnits: 0, writeUnits: units, indexUnits };
}

/**
 * Every DynamoDB call made while `run` runs, with the capacity DynamoDB reports for it (asked for
 * on each call). Real DynamoDB Local answers: nothing is mocked.
 */
export async function dynamoUsageOf(run: () => Promise<unknown>): Promise<DynamoCall[]> {
  const calls: DynamoCall[] = [];
  const name = `recordUsage-${Math.random()}`;
  dynamoClient.middlewareStack.add(
    (next, context) => async (args) => {
      const command = String(context.commandName).replace(/Command$/, '');
      (args.input as Record<string, unknown>).ReturnConsumedCapacity = 'INDEXES';
      const result = await next(args);
      const output = result.output as { ConsumedCapacity?: Capacity | Capacity[] };
      const reported = output.ConsumedCapacity;
      calls.push({ command, ...costOf(command, reported === undefined ? [] : [reported].flat()) });
      return result;
    },
    { step: 'initialize', name },
  );
  try {
    await run();
  } finally {
    dynamoClient.middlewareStack.remove(name);
  }
  return calls;
}

export const totalUnits = (calls: DynamoCall[]): number =>
  calls.reduce((sum, call) => sum + call.readUnits + call.writeUnits, 0);

import { SIGNALS_DISPATCH_FUNCTION } from '#functions/signals/function';
import { tableName } from '#tables/client';
import { createTableIfMissing } from '#tables/create-table';
import { mappingOf, type StreamReader, startStreamReader } from '../../scripts/local/stream-reader.ts';

/**
 * The stack's stream consumer, in this process, on this process's table (test/setup-env.ts, or a
 * benchmark's): the dispatcher's own mapping (its filter) and handler, as on AWS and under
 * `npm start`. Here it numbers the change feed's pending rows (tables/feed/changes.ts) and moves
 * the org counters of messages and agreements (tables/org/stream-counts.ts); it signals nobody, as
 * no signal channel is configured. Turns the table's stream on first. `settled()` resolves once
 * every write made before it has been handled. While nobody awaits `settled()` it reads the stream
 * once a second, not every 20 ms: the test files share one DynamoDB Local, and ten readers polling
 * it fifty times a second slowed every file beside them.
 */
export async function startInProcessStreamConsumer(
  options: { pollMs?: number; idlePollMs?: number } = {},
): Promise<StreamReader> {
  await createTableIfMissing(tableName());
  const { handler } = await import('#functions/signals/dispatch');
  return startStreamReader({
    dynamoEndpoint: process.env.DYNAMODB_ENDPOINT ?? '',
    table: tableName(),
    mapping: mappingOf('signalsDispatch', SIGNALS_DISPATCH_FUNCTION),
    invoke: async (records) => {
      await handler({ Records: records as never });
    },
    pollMs: options.pollMs ?? 20,
    idlePollMs: options.idlePollMs ?? 1_000,
    label: 'stream consumer',
  });
}

import { httpRequest } from './http-request.ts';

/**
 * The calls the local stream reader needs (DescribeTable for the stream's ARN, then the Streams
 * API's DescribeStream, GetShardIterator and GetRecords), sent to DynamoDB Local as the AWS SDK would send them (JSON 1.0 over HTTP). The
 * project does not depend on the SDK's streams client for these few calls; DynamoDB Local does
 * not check signatures, so the Authorization header only names a credential, as the local
 * DynamoDB client's does (tables/client.ts).
 */
export interface StreamRecord {
  eventName?: string;
  dynamodb?: {
    Keys?: Record<string, unknown>;
    NewImage?: Record<string, unknown>;
    SequenceNumber?: string;
  };
  [field: string]: unknown;
}

export interface Shard {
  ShardId: string;
  ParentShardId?: string;
  SequenceNumberRange?: { StartingSequenceNumber?: string; EndingSequenceNumber?: string };
}

export class StreamsCallError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
  ) {
    super(message);
    this.name = 'StreamsCallError';
  }
}

export function dynamoStreams(endpoint: string) {
  async function call<T>(action: string, body: unknown, api = 'DynamoDBStreams_20120810'): Promise<T> {
    const response = await httpRequest(endpoint, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-amz-json-1.0',
        'x-amz-target': `${api}.${action}`,
        authorization:
          'AWS4-HMAC-SHA256 Credential=local/20250101/local/dynamodb/aws4_request, SignedHeaders=host, Signature=0',
      },
      body: JSON.stringify(body),
      timeoutMs: 10_000,
    });
    const parsed = response.text ? JSON.parse(response.text) : {};
    if (response.status !== 200) {
      const type =
        String(parsed.__type ?? '')
          .split('#')
          .pop() ?? '';
      throw new StreamsCallError(response.status, type, `${action}: ${type} ${parsed.message ?? ''}`.trim());
    }
    return parsed as T;
  }
  return {
    /** The table's current stream, if it has one. */
    latestStreamArn: async (table: string): Promise<string | undefined> =>
      (
        await call<{ Table?: { LatestStreamArn?: string } }>(
          'DescribeTable',
          { TableName: table },
          'DynamoDB_20120810',
        )
      ).Table?.LatestStreamArn,
    describeStream: (streamArn: string) =>
      call<{ StreamDescription: { Shards?: Shard[]; StreamStatus?: string } }>('DescribeStream', {
        StreamArn: streamArn,
      }),
    shardIterator: async (
      streamArn: string,
      shardId: string,
      type: 'LATEST' | 'TRIM_HORIZON' | 'AFTER_SEQUENCE_NUMBER',
      sequenceNumber?: string,
    ): Promise<string | undefined> =>
      (
        await call<{ ShardIterator?: string }>('GetShardIterator', {
          StreamArn: streamArn,
          ShardId: shardId,
          ShardIteratorType: type,
          ...(sequenceNumber ? { SequenceNumber: sequenceNumber } : {}),
        })
      ).ShardIterator,
    records: (iterator: string) =>
      call<{ Records?: StreamRecord[]; NextShardIterator?: string }>('GetRecords', {
        ShardIterator: iterator,
        Limit: 1000,
      }),
  };
}

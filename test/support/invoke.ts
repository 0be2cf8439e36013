import type { Context } from 'aws-lambda';
import { basicAuthHeader } from '#lib/auth/basic';
import type { APIGatewayProxyEventV2 } from '#lib/http/lambda-types';
import type { Response } from '#lib/http/responses';

type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<Response>;

export interface InvokeOptions {
  /** `org/id:secret` as given to Basic auth; omitted = anonymous. */
  auth?: { user: string; secret: string };
  path?: Record<string, string>;
  query?: Record<string, string>;
  /** An object is sent as JSON; a string is sent verbatim (malformed-JSON tests). */
  body?: unknown;
  headers?: Record<string, string>;
  /**
   * What the handler's context reports as time left (30 s, as an API Gateway request has). Its
   * timeout answers 500 just before; a test of an outcome under heavy contention may give more.
   */
  remainingMs?: number;
}

export interface InvokeResult {
  status: number;
  headers: Record<string, string>;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary response shapes.
  body: any;
}

const contextWith = (remainingMs: number) =>
  ({
    functionName: 'test',
    awsRequestId: 'test',
    getRemainingTimeInMillis: () => remainingMs,
  }) as Context;

/** Calls a handler in-process with an API Gateway HTTP API (v2) event, as Lambda would. */
export async function invoke(handler: Handler, options: InvokeOptions = {}): Promise<InvokeResult> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.auth) headers.authorization = basicAuthHeader(options.auth.user, options.auth.secret);
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const event: APIGatewayProxyEventV2 = {
    headers,
    pathParameters: options.path,
    queryStringParameters: options.query,
    body,
    isBase64Encoded: false,
  };
  const response = await handler(event, contextWith(options.remainingMs ?? 30_000));
  const text = response.body ?? '';
  let parsed: unknown = text;
  if ((response.headers?.['Content-Type'] ?? '').startsWith('application/json')) parsed = JSON.parse(text);
  return { status: response.statusCode, headers: response.headers ?? {}, text, body: parsed };
}

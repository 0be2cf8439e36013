import { join } from 'node:path';
import type { Context } from 'aws-lambda';
import { handler } from '#functions/secrets/lambda';
import { basicAuthHeader } from '#lib/auth/basic';
import { insertAgbotPattern } from '#tables/agbot/pattern-records';
import { insertAgbotPolicy } from '#tables/agbot/policy-records';
import { tempDir } from '#test/support/temp-dir';

/** Helpers of the secrets manager's integration tests: requests through the family's real Lambda. */
export type Auth = { user: string; secret: string };

/** A fresh local master key directory for this test file (the provider creates the key on first use). */
export function useTempMasterKey(): string {
  const dir = tempDir('secrets-key-');
  process.env.EXCHANGE_SECRETS_MASTER_KEY_FILE = join(dir, 'master-key');
  delete process.env.EXCHANGE_SECRETS_KMS_KEY_ID;
  return process.env.EXCHANGE_SECRETS_MASTER_KEY_FILE;
}

const context = { functionName: 'test', awsRequestId: 'test' } as Context;

export interface Answer {
  status: number;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary response shapes.
  body: any;
}

/** `method path` (path under /v1, as API Gateway hands it over: already decoded) through the Lambda. */
export async function call(
  method: string,
  path: string,
  auth: Auth | undefined,
  body?: unknown,
  query?: Record<string, string>,
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (auth) headers.authorization = basicAuthHeader(auth.user, auth.secret);
  let text: string | undefined;
  if (body !== undefined) {
    text = typeof body === 'string' ? body : JSON.stringify(body);
    headers['content-type'] = 'application/json';
  }
  const response = await handler(
    {
      headers,
      rawPath: `/v1${path}`,
      requestContext: { http: { method, path: `/v1${path}` } },
      queryStringParameters: query,
      body: text,
      isBase64Encoded: false,
      // biome-ignore lint/suspicious/noExplicitAny: the event type's optional fields are enough here.
    } as any,
    context,
  );
  const out = response.body ?? '';
  const isJson = (response.headers?.['Content-Type'] ?? '').startsWith('application/json');
  return { status: response.statusCode, text: out, body: isJson && out ? JSON.parse(out) : out };
}

/** Makes agbot `org/id` serve org `served`'s deployment policies. */
export const serveOrg = (org: string, id: string, served: string) =>
  insertAgbotPolicy({
    org,
    id,
    policyId: `${served}_*`,
    businessPolOrgid: served,
    businessPol: '*',
    nodeOrgid: served,
    lastUpdated: new Date().toISOString(),
  });

/** Makes agbot `org/id` serve org `served`'s patterns. */
export const servePatterns = (org: string, id: string, served: string) =>
  insertAgbotPattern({
    org,
    id,
    patternId: `${served}_*`,
    patternOrgid: served,
    pattern: '*',
    nodeOrgid: served,
    lastUpdated: new Date().toISOString(),
  });

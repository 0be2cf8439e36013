import type { APIGatewayProxyResultV2 } from './lambda-types.ts';

export type Response = APIGatewayProxyResultV2 & { statusCode: number };

/** Headers upstream sends on every answer; clients and proxies rely on the no-cache ones. */
export const commonHeaders: Record<string, string> = {
  'Cache-Control': 'max-age=0, must-revalidate, no-cache, no-store',
  'Strict-Transport-Security': 'max-age=63072000',
  'X-Content-Type-Options': 'nosniff',
  'X-XSS-Protection': '1; mode=block',
  'Access-Control-Allow-Origin': '*',
};

export const json = (statusCode: number, body: unknown): Response => ({
  statusCode,
  headers: { ...commonHeaders, 'Content-Type': 'application/json' },
  body: JSON.stringify(body),
});

export const text = (statusCode: number, body: string): Response => ({
  statusCode,
  headers: { ...commonHeaders, 'Content-Type': 'text/plain; charset=UTF-8' },
  body,
});

/** The upstream `ApiResponse` envelope for successful writes. */
export const ok = (msg: string, statusCode = 201): Response => json(statusCode, { code: 'ok', msg });

export const noContent = (): Response => ({ statusCode: 204, headers: { ...commonHeaders } });

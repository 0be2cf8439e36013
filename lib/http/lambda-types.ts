/** The slice of the API Gateway HTTP API (payload v2) event and result this code uses. */
export interface APIGatewayProxyEventV2 {
  rawPath?: string;
  headers: Record<string, string | undefined>;
  pathParameters?: Record<string, string | undefined>;
  queryStringParameters?: Record<string, string | undefined>;
  body?: string | null | unknown;
  isBase64Encoded?: boolean;
  requestContext?: { http?: { method?: string; path?: string } };
}

export interface APIGatewayProxyResultV2 {
  statusCode?: number;
  headers?: Record<string, string>;
  body?: string;
}

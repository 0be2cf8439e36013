import type { z } from 'zod';
import type { DeploymentRow, Deployments } from '#functions/console/shared/deployment-schemas';
import type {
  FleetSummary,
  NodeChanges,
  NodeSummariesResponse,
  NodeSummary,
  WhoAmI,
} from '#functions/console/shared/schemas';
import type { deploymentPoliciesResponse } from '#functions/deployment-policies/shared/responses';
import type { getNodeAgreementsResponse } from '#functions/node-agreements/shared/responses';
import type { getManagementStatusResponse } from '#functions/node-management-status/shared/responses';
import type { nodeErrors, nodeStatus } from '#functions/nodes/report-responses';
import type { getNodesResponse, nodePolicy } from '#functions/nodes/responses';
import type { getOrgsResponse } from '#functions/orgs/shared/responses';
import type { patternsResponse } from '#functions/patterns/shared/responses';
import type { getServicesResponse } from '#functions/services/shared/responses';
import type { getUsersResponse } from '#functions/users/shared/responses';

/**
 * The API as the console calls it: same origin, `Authorization: Basic` from the signed-in
 * credentials, JSON both ways. The answers' types are the server's own schemas' (imported as
 * types only: nothing of the server is bundled).
 */
export type {
  DeploymentRow,
  Deployments,
  FleetSummary,
  NodeChanges,
  NodeSummariesResponse,
  NodeSummary,
  WhoAmI,
};
export type ManagementStatuses = z.infer<typeof getManagementStatusResponse>;
export type Policies = z.infer<typeof deploymentPoliciesResponse>;
export type Patterns = z.infer<typeof patternsResponse>;
export type NodeAgreements = z.infer<typeof getNodeAgreementsResponse>;
export type NodeStatus = z.infer<typeof nodeStatus>;
export type NodeErrors = z.infer<typeof nodeErrors>;
export type Nodes = z.infer<typeof getNodesResponse>;
export type NodePolicy = z.infer<typeof nodePolicy>;
export type Orgs = z.infer<typeof getOrgsResponse>;
export type Services = z.infer<typeof getServicesResponse>;
export type Users = z.infer<typeof getUsersResponse>;

const STORE = 'oe-console-auth';
let authorization: string | undefined = sessionStorage.getItem(STORE) ?? undefined;
let onSignedOut: () => void = () => {};

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export const signedIn = (): boolean => authorization !== undefined;
export const whenSignedOut = (handler: () => void): void => {
  onSignedOut = handler;
};

/** Base64 of UTF-8 (btoa takes Latin-1 only). */
const base64 = (text: string): string => btoa(String.fromCharCode(...new TextEncoder().encode(text)));

export async function signIn(user: string, password: string): Promise<WhoAmI> {
  authorization = `Basic ${base64(`${user}:${password}`)}`;
  try {
    const me = await api<WhoAmI>('GET', '/v1/console/whoami');
    sessionStorage.setItem(STORE, authorization);
    return me;
  } catch (error) {
    authorization = undefined;
    throw error;
  }
}

export function signOut(): void {
  authorization = undefined;
  sessionStorage.clear();
  onSignedOut();
}

export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (authorization) headers.authorization = authorization;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(path, {
    method,
    headers,
    credentials: 'omit',
    cache: 'no-store',
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  const parsed = text ? (JSON.parse(text) as unknown) : undefined;
  if (!response.ok) {
    const msg = (parsed as { msg?: string } | undefined)?.msg ?? response.statusText;
    if (response.status === 401 && path !== '/v1/console/whoami') signOut();
    throw new ApiError(response.status, msg);
  }
  return parsed as T;
}

/** GET that answers undefined on a 404 (upstream's empty lists and absent sub-resources). */
export async function maybe<T>(path: string): Promise<T | undefined> {
  try {
    return await api<T>('GET', path);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return undefined;
    throw error;
  }
}

export const seg = encodeURIComponent;

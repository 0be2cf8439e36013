/**
 * The Exchange calls of the node's side of the agreement protocol (docs/protocol.md#mailboxes, #agreement-rows-and-states): the
 * change feed that doubles as heartbeat, the node's mailbox, the agbot's mailbox, node agreement
 * rows, and the two reads a proposal needs (the agbot's key, the service's declared user input).
 * Answers are checked with zod: a record of another shape is skipped, never trusted.
 */
import * as z from 'zod';
import { requiredServicesSchema } from '#lib/protocol/catalog-records';
import { type PageQuery, pageQueryString } from '#lib/protocol/mailbox-pages';
import { type Credentials, ExchangeHttpError } from '../exchange/client.ts';
import type { AgentContext } from '../runtime/context.ts';

const enc = encodeURIComponent;
const nodePath = (c: Credentials) => `/orgs/${enc(c.org)}/nodes/${enc(c.id)}`;

const nodeMessageSchema = z.object({
  msgId: z.number().int(),
  agbotId: z.string(),
  agbotPubKey: z.string(),
  message: z.string(),
});
export type NodeMessage = z.infer<typeof nodeMessageSchema>;

const changesSchema = z.object({
  changes: z.array(z.object({ orgId: z.string(), resource: z.string(), id: z.string() }).loose()),
  mostRecentChangeId: z.number().int(),
});
export type Changes = z.infer<typeof changesSchema>;

/**
 * POST /orgs/{org}/changes: the node's heartbeat and what changed from `changeId` on, with the
 * signal channel's address when the Exchange announces one.
 */
export async function postChanges(
  ctx: AgentContext,
  creds: Credentials,
  changeId: number,
): Promise<Changes & { signalsUrl: string | undefined }> {
  const { body, signalsUrl } = await ctx.exchange.changes(creds, { changeId, maxRecords: 1000 });
  const parsed = changesSchema.safeParse(body);
  if (!parsed.success) throw new Error('POST /changes: unexpected answer');
  return { ...parsed.data, signalsUrl };
}

/** One page of the node's messages, oldest first; one of another shape is left out. */
export async function listMessages(
  ctx: AgentContext,
  creds: Credentials,
  page: PageQuery,
): Promise<NodeMessage[]> {
  const body = await ctx.exchange.request<{ messages?: unknown[] }>(
    'GET',
    `${nodePath(creds)}/msgs?${pageQueryString(page)}`,
    creds,
    undefined,
    true,
  );
  return (body?.messages ?? []).flatMap((m) => {
    const parsed = nodeMessageSchema.safeParse(m);
    return parsed.success ? [parsed.data] : [];
  });
}

export async function deleteMessage(ctx: AgentContext, creds: Credentials, msgId: number): Promise<void> {
  await ctx.exchange.request('DELETE', `${nodePath(creds)}/msgs/${msgId}`, creds, undefined, true);
}

/** POST /orgs/{agbotOrg}/agbots/{agbot}/msgs with an already sealed message. */
export async function sendToAgbot(
  ctx: AgentContext,
  creds: Credentials,
  agbotId: string,
  sealed: string,
  ttl: number,
): Promise<void> {
  const [org = '', id = ''] = agbotId.split('/');
  await ctx.exchange.request('POST', `/orgs/${enc(org)}/agbots/${enc(id)}/msgs`, creds, {
    message: sealed,
    ttl,
  });
}

/** The agbot's published key (for a send that answers no message of its own), or undefined. */
export async function agbotPublicKey(
  ctx: AgentContext,
  creds: Credentials,
  agbotId: string,
): Promise<string | undefined> {
  const [org = '', id = ''] = agbotId.split('/');
  let body: { agbots?: Record<string, { publicKey?: string }> } | undefined;
  try {
    body = await ctx.exchange.request('GET', `/orgs/${enc(org)}/agbots/${enc(id)}`, creds, undefined, true);
  } catch (error) {
    // A node may not read an agbot of another org (403): the caller uses the key it has.
    if (error instanceof ExchangeHttpError) return undefined;
    throw error;
  }
  const key = body?.agbots && Object.hasOwn(body.agbots, agbotId) ? body.agbots[agbotId]?.publicKey : '';
  return key || undefined;
}

export interface NodeAgreementRow {
  /** The T&C's apiSpec entries (pattern case); left out when empty, as anax does. */
  services?: { orgid: string; url: string }[];
  agreementService: { orgid: string; pattern: string; url: string };
  state: string;
}

/** PUT .../nodes/{n}/agreements/{id}?noheartbeat=true (anax RecordReply and finalisation). */
export async function putNodeAgreement(
  ctx: AgentContext,
  creds: Credentials,
  agreementId: string,
  row: NodeAgreementRow,
): Promise<void> {
  await ctx.exchange.request(
    'PUT',
    `${nodePath(creds)}/agreements/${enc(agreementId)}?noheartbeat=true`,
    creds,
    row,
  );
}

/** DELETE of the node agreement; one already gone is fine. */
export async function deleteNodeAgreement(
  ctx: AgentContext,
  creds: Credentials,
  agreementId: string,
): Promise<void> {
  await ctx.exchange.request(
    'DELETE',
    `${nodePath(creds)}/agreements/${enc(agreementId)}`,
    creds,
    undefined,
    true,
  );
}

const declaredInputSchema = z.object({
  name: z.string(),
  label: z.string().optional(),
  type: z.string().optional(),
  defaultValue: z.string().optional(),
});
export type DeclaredInput = z.infer<typeof declaredInputSchema>;

/** The parts of the Exchange's service record that `GET /service` shows as its definition. */
const serviceRecordSchema = z
  .object({
    owner: z.string().optional(),
    label: z.string().optional(),
    description: z.string().optional(),
    public: z.boolean().optional(),
    documentation: z.string().optional(),
    url: z.string().optional(),
    version: z.string(),
    arch: z.string().optional(),
    sharable: z.string().optional(),
    matchHardware: z.record(z.string(), z.unknown()).nullish(),
    requiredServices: requiredServicesSchema.nullish(),
    userInput: z.array(z.unknown()).nullish(),
    deployment: z.string().optional(),
    deploymentSignature: z.string().optional(),
    lastUpdated: z.string().optional(),
  })
  .loose();

export interface ServiceRecord {
  owner: string;
  label: string;
  description: string;
  public: boolean;
  sharable: string;
  matchHardware: Record<string, unknown>;
  requiredServices: { url: string; org: string; version: string; versionRange?: string; arch: string }[];
  userInput: DeclaredInput[];
  lastUpdated: string;
}

/** A definition as a dependency runs it: the record plus what identifies it and its signed deployment. */
export interface ServiceDefinition extends ServiceRecord {
  org: string;
  url: string;
  version: string;
  arch: string;
  deployment: string;
  deploymentSignature: string;
}

/**
 * The service's record in the Exchange (`GET /orgs/{org}/services?url=&arch=`, the version the
 * proposal names): its declared user input (for the user-input check and the environment's
 * defaults) and what `GET /service` shows. Undefined when not found or not readable.
 */
export async function serviceRecord(
  ctx: AgentContext,
  creds: Credentials,
  service: { org: string; url: string; version: string; arch: string },
): Promise<ServiceRecord | undefined> {
  const all = await serviceDefinitions(ctx, creds, service.org, service.url, service.arch);
  const found = all.find((d) => d.version === service.version);
  if (!found) return undefined;
  const {
    org: _o,
    url: _u,
    version: _v,
    arch: _a,
    deployment: _d,
    deploymentSignature: _s,
    ...record
  } = found;
  return record;
}

/**
 * Every definition of `org/url` the node may read (`GET /orgs/{org}/services?url=[&arch=]`);
 * empty when none or not readable (another org's private service answers 403).
 */
export async function serviceDefinitions(
  ctx: AgentContext,
  creds: Credentials,
  org: string,
  url: string,
  arch = '',
): Promise<ServiceDefinition[]> {
  const query = new URLSearchParams({ url, ...(arch ? { arch } : {}) });
  let body: { services?: Record<string, unknown> } | undefined;
  try {
    body = await ctx.exchange.request('GET', `/orgs/${enc(org)}/services?${query}`, creds, undefined, true);
  } catch (error) {
    if (error instanceof ExchangeHttpError && error.status === 403) return [];
    throw error;
  }
  return Object.values(body?.services ?? {}).flatMap((record) => {
    const parsed = serviceRecordSchema.safeParse(record);
    if (!parsed.success) return [];
    const r = parsed.data;
    return [
      {
        org,
        url: r.url ?? url,
        version: r.version,
        arch: r.arch ?? '',
        deployment: r.deployment ?? '',
        deploymentSignature: r.deploymentSignature ?? '',
        owner: r.owner ?? '',
        label: r.label ?? '',
        description: r.description ?? '',
        public: r.public ?? false,
        sharable: r.sharable ?? 'multiple',
        matchHardware: r.matchHardware ?? {},
        requiredServices: (r.requiredServices ?? []).map((s) => ({
          url: s.url,
          org: s.org,
          version: s.version ?? '',
          ...(s.versionRange ? { versionRange: s.versionRange } : {}),
          arch: s.arch ?? '',
        })),
        userInput: (r.userInput ?? []).flatMap((entry) => {
          const input = declaredInputSchema.safeParse(entry);
          return input.success ? [input.data] : [];
        }),
        lastUpdated: r.lastUpdated ?? '',
      },
    ];
  });
}

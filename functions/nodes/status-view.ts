import type * as z from 'zod';
import type { NodeErrorsRecord, NodeStatusRecord } from '#tables/node/report-records';
import type { nodeErrors, nodeStatus, oneService } from './report-responses.ts';
import type { OneServiceInput, PutNodeStatusBody } from './report-schemas.ts';

type Service = z.infer<typeof oneService>;

/** A service entry as stored and returned: absent strings "", no containers `[]`, optional fields only when given. */
function storedService(s: OneServiceInput | Service): Service {
  return {
    agreementId: s.agreementId ?? '',
    serviceUrl: s.serviceUrl ?? '',
    orgid: s.orgid ?? '',
    version: s.version ?? '',
    arch: s.arch ?? '',
    containerStatus: (s.containerStatus ?? []).map((c) => ({
      name: c.name,
      image: c.image,
      created: c.created,
      state: c.state,
    })),
    ...(s.operatorStatus != null ? { operatorStatus: s.operatorStatus } : {}),
    ...(s.configState != null ? { configState: s.configState } : {}),
  };
}

/** `|<org>/<url>_<version>_<arch>|` for each service, as upstream computes it. */
export const runningServices = (services: Service[]): string =>
  `|${services.map((s) => `${s.orgid}/${s.serviceUrl}_${s.version}_${s.arch}|`).join('')}`;

/** The record a status PUT stores. */
export function storedStatus(
  org: string,
  id: string,
  body: PutNodeStatusBody,
  now: string,
): NodeStatusRecord {
  const services = body.services.map(storedService);
  return {
    org,
    id,
    connectivity: { ...(body.connectivity ?? {}) },
    services,
    runningServices: runningServices(services),
    lastUpdated: now,
  };
}

export const nodeStatusView = (status: NodeStatusRecord): z.infer<typeof nodeStatus> => ({
  connectivity: { ...status.connectivity },
  services: (status.services as Service[]).map(storedService),
  runningServices: status.runningServices,
  lastUpdated: status.lastUpdated,
});

export const nodeErrorsView = (record: NodeErrorsRecord): z.infer<typeof nodeErrors> => ({
  errors: record.errors as z.infer<typeof nodeErrors>['errors'],
  lastUpdated: record.lastUpdated,
});

import { IBM_ORG } from '#lib/auth/caller';
import { compareVersions, isValidVersion } from '#lib/catalog/version-range';
import { listObjects } from '#tables/object/records';
import { getAgentFileVersions, putAgentFileVersions } from '#tables/org/agent-file-versions';

/** Object types of agent files: `agent_<kind>_files-<version>` (upstream's edgeNodeFiles.sh). */
const AGENT_FILES = /^agent_(software|config|cert)_files-(.+)$/;

export const isAgentFilesType = (type: string): boolean => AGENT_FILES.test(type);

/**
 * Keeps IBM's AgentFileVersion in step with the agent files published in the object store
 * (docs/nmp.md#the-object-store), instead of upstream's agbot scanning CSS every 60 s: after a
 * write of an IBM agent-files object, each kind lists the versions that have at least one object
 * with its data, newest first. Written only when a list changed (its change row is public).
 */
export async function refreshAgentFileVersions(lastUpdated: string): Promise<void> {
  const found = { software: new Set<string>(), config: new Set<string>(), cert: new Set<string>() };
  for (const object of await listObjects(IBM_ORG)) {
    const match = AGENT_FILES.exec(object.type);
    if (!match || object.dataSize === undefined || !isValidVersion(match[2] as string)) continue;
    found[match[1] as keyof typeof found].add(match[2] as string);
  }
  const newestFirst = (versions: Set<string>) => [...versions].sort((a, b) => compareVersions(b, a));
  const lists = {
    agentSoftwareVersions: newestFirst(found.software),
    agentConfigVersions: newestFirst(found.config),
    agentCertVersions: newestFirst(found.cert),
  };
  const stored = await getAgentFileVersions(IBM_ORG);
  const same =
    stored !== undefined &&
    JSON.stringify([stored.agentSoftwareVersions, stored.agentConfigVersions, stored.agentCertVersions]) ===
      JSON.stringify([lists.agentSoftwareVersions, lists.agentConfigVersions, lists.agentCertVersions]);
  if (!same) await putAgentFileVersions(IBM_ORG, lists, lastUpdated);
}

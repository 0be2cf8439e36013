import type { ManagementStatuses, NodeChanges } from '../api.ts';
import { ago } from '../state.ts';

/** The node's agent upgrade jobs (node management policies), as its agent last reported them. */
export function ManagementStatus({ statuses }: { statuses: ManagementStatuses | undefined }) {
  const entries = Object.entries(statuses?.managementStatus ?? {});
  if (entries.length === 0) return <p>No node management policy has reached this node.</p>;
  return (
    <table data-testid="node-management">
      <thead>
        <tr>
          <th scope="col">Policy</th>
          <th scope="col">Status</th>
          <th scope="col">Agent version</th>
          <th scope="col">Scheduled</th>
          <th scope="col">Updated</th>
        </tr>
      </thead>
      <tbody>
        {entries.map(([policy, { agentUpgradePolicyStatus: job }]) => (
          <tr key={policy}>
            <th scope="row">{policy}</th>
            <td>
              {job.status || 'not started'}
              {job.errorMessage ? <div class="hint">{job.errorMessage}</div> : null}
            </td>
            <td>{job.upgradedVersions.softwareVersion || '-'}</td>
            <td title={job.scheduledTime}>{job.scheduledTime ? ago(job.scheduledTime) : '-'}</td>
            <td title={job.lastUpdated}>{ago(job.lastUpdated)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The node's own rows of the change feed, newest first (the feed keeps 4 hours). */
export function RecentChanges({ changes }: { changes: NodeChanges | undefined }) {
  if (!changes?.changes.length) return <p>None in the last 4 hours.</p>;
  return (
    <ol class="changes" data-testid="node-changes">
      {changes.changes.map((row) => (
        <li key={row.changeId}>
          <span title={row.lastUpdated}>{ago(row.lastUpdated)}</span>: {row.resource} {row.operation}
        </li>
      ))}
    </ol>
  );
}

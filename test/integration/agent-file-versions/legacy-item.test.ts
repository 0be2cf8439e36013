import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { handler as getVersions } from '#functions/agent-file-versions/get-agent-file-versions';
import { handler as putVersions } from '#functions/agent-file-versions/put-agent-file-versions';
import { documentClient, tableName } from '#tables/client';
import { orgKeys } from '#tables/keys/org';
import { ROOT } from '#test/support/identities';
import { invoke } from '#test/support/invoke';
import { useTestTable } from '#test/support/table';

useTestTable();

const IBM = { organization: 'IBM' };
const lists = { agentSoftwareVersions: ['2.30.0'], agentConfigVersions: [], agentCertVersions: ['0.0.1'] };

describe("IBM's agent file versions stored before they were kept per org", () => {
  it('are still read, and replaced by the next PUT', async () => {
    // The item as the IBM-only code wrote it: the same key, no `org` attribute.
    const legacy = {
      ...orgKeys.agentFileVersions('IBM'),
      _et: 'agentFileVersions',
      ...lists,
      lastUpdated: 'then',
    };
    await documentClient.send(new PutCommand({ TableName: tableName(), Item: legacy }));
    const got = await invoke(getVersions, { auth: ROOT, path: IBM });
    expect(got.status).toBe(200);
    expect(got.body).toEqual({ ...lists, lastUpdated: 'then' });
    const body = { ...lists, agentConfigVersions: ['0.0.9'] };
    expect((await invoke(putVersions, { auth: ROOT, path: IBM, body })).status).toBe(201);
    expect((await invoke(getVersions, { auth: ROOT, path: IBM })).body).toMatchObject(body);
  });
});

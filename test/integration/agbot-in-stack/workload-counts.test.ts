import { describe, expect, it } from 'vitest';
import { exchangeCall } from '../../../agbot/test-support/scripted-node.ts';
import { agreementFinalized, exchangeBaseUrl, invoke, noCrash } from './crash/scenario.ts';

/**
 * The agbot's status per policy counts `running` and `failing` from the nodes' own status reports
 * (docs/agbot.md "Status"): a node's `PUT …/status` makes a `nodestatus` change row, the next
 * round reads that node's report once and keeps its workload's state on the agreement.
 */
describe("the agbot's status counts what the nodes report", () => {
  it('running once the node reports its containers running, failing once one exited, neither once the report drops it', async () => {
    noCrash();
    const { org, call, node, mine } = await agreementFinalized('counts');
    const [agreement] = await mine();
    const agreementId = agreement?.agreementId as string;
    const counts = async () => {
      const answer = await call('GET', `/orgs/${org}/agbotstatus/policies/p`);
      expect(answer.status).toBe(200);
      const { agreed, running, failing } = answer.body as Record<string, number>;
      return { agreed, running, failing };
    };
    const report = async (states: string[]) => {
      const services =
        states.length === 0
          ? []
          : [
              {
                agreementId,
                serviceUrl: 'crash.svc',
                orgid: org,
                version: '1.0.0',
                arch: 'amd64',
                containerStatus: states.map((state, i) => ({
                  name: `s${i}`,
                  image: 'busybox',
                  created: 1,
                  state,
                })),
              },
            ];
      const put = await exchangeCall(exchangeBaseUrl(), node.creds, 'PUT', `/orgs/${org}/nodes/n1/status`, {
        services,
      });
      expect(put.status).toBe(201);
      await invoke();
    };

    // Agreed, nothing reported yet: neither.
    expect(await counts()).toEqual({ agreed: 1, running: 0, failing: 0 });
    await report(['running', 'created']);
    expect(await counts()).toEqual({ agreed: 1, running: 0, failing: 0 });
    await report(['running', 'running']);
    expect(await counts()).toEqual({ agreed: 1, running: 1, failing: 0 });
    await report(['running', 'exited']);
    expect(await counts()).toEqual({ agreed: 1, running: 0, failing: 1 });
    await report([]);
    expect(await counts()).toEqual({ agreed: 1, running: 0, failing: 0 });
  });
});

import type { WorkloadRequest } from '../workloads/runner.ts';

/** The node and platform a test workload runs with (node n1 of org acme, 1 CPU, 256 MB, no privilege). */
export const testWorkloadEnvironment = (agreementId: string): WorkloadRequest['environment'] => ({
  node: {
    cpus: 1,
    memoryMb: 256,
    arch: 'amd64',
    hardwareId: 'hw',
    hostIps: [],
    allowPrivileged: false,
  },
  platform: {
    agreementId,
    nodeId: 'n1',
    org: 'acme',
    pattern: '',
    exchangeUrl: 'http://127.0.0.1:1/v1',
  },
  userInputs: [],
});

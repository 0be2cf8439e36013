import { describe, expect, it } from 'vitest';
import { deployersOf } from '../../../console/src/pages/deployers.ts';

const policy = (org: string, name: string) => ({ service: { org, name } });
const pattern = (...services: [string, string][]) => ({
  services: services.map(([serviceOrgid, serviceUrl]) => ({ serviceOrgid, serviceUrl })),
});

describe("the Services page's 'who deploys'", () => {
  it('names the policies and the patterns that deploy the service of this org', () => {
    const policies = { 'acme/web-pol': policy('acme', 'web'), 'acme/db-pol': policy('acme', 'db') };
    const patterns = {
      'acme/edge': pattern(['acme', 'db'], ['acme', 'web']),
      'acme/ibm-web': pattern(['IBM', 'web']),
      'acme/empty': pattern(),
    };
    expect(deployersOf('acme', 'web', policies, patterns)).toEqual([
      'policy acme/web-pol',
      'pattern acme/edge',
    ]);
    expect(deployersOf('acme', 'cache', policies, patterns)).toEqual([]);
    expect(deployersOf('IBM', 'web', {}, patterns)).toEqual(['pattern acme/ibm-web']);
  });
});

import { describe, expect, it } from 'vitest';
import { checkDependencies, type DependencyRecord, dependencyRecords } from '#lib/protocol/dependency-check';

/** A service needing `o/dep`, whose one version asks for input GREETING and binds secret `token`. */
const top = {
  org: 'o',
  url: 'top',
  requiredServices: [{ org: 'o', url: 'dep', versionRange: '[1.0.0,2.0.0)' }],
};
const dep: DependencyRecord = {
  version: '1.5.0',
  arch: 'amd64',
  deployment: JSON.stringify({ services: { dep: { image: 'busybox', secrets: { token: {} } } } }),
  userInput: [{ name: 'GREETING', type: 'string' }],
  requiredServices: [],
};
const list = async (org: string, url: string) => (`${org}/${url}` === 'o/dep' ? [dep] : []);
const inputs = (value?: string) => ({
  policy: value
    ? [
        {
          serviceOrgid: 'o',
          serviceUrl: 'dep',
          serviceVersionRange: '[0.0.0,INFINITY)',
          inputs: [{ name: 'GREETING', value }],
        },
      ]
    : [],
  node: [],
});
const binding = {
  serviceOrgid: 'o',
  serviceUrl: 'dep',
  serviceVersionRange: '[0.0.0,INFINITY)',
  enableNodeLevelSecrets: false,
  secrets: [{ token: 'org-token' }],
};

describe('dependency checks shared by the agbot and hzn deploycheck', () => {
  it('names the check that failed: resolution, user input, then secret bindings', async () => {
    expect(await checkDependencies(top, 'arm64', list, {})).toMatchObject({ ok: false, failed: 'resolve' });
    expect(await checkDependencies(top, 'amd64', list, { inputs: inputs() })).toMatchObject({
      ok: false,
      failed: 'userinput',
      reason: expect.stringContaining('dependency o/dep'),
    });
    expect(await checkDependencies(top, 'amd64', list, { inputs: inputs('hi'), bindings: [] })).toMatchObject(
      {
        ok: false,
        failed: 'secretbinding',
      },
    );
  });

  it('skips the checks a caller leaves out, and returns the secrets the bindings name', async () => {
    expect(await checkDependencies(top, 'amd64', list, {})).toEqual({ ok: true, bound: [] });
    const verdict = await checkDependencies(top, 'amd64', list, {
      inputs: inputs('hi'),
      bindings: [binding],
    });
    expect(verdict).toMatchObject({
      ok: true,
      bound: [{ serviceSecret: 'token', managerSecret: 'org-token' }],
    });
  });

  it('reads service records leniently: a malformed one is left out', () => {
    expect(dependencyRecords({ a: { version: '1.0.0', arch: 'amd64' }, b: { arch: 'amd64' } })).toHaveLength(
      1,
    );
  });
});

import { describe, expect, it } from 'vitest';
import { secretBindingSchema } from '#lib/protocol/secret-binding';
import { resolveSecretBindings } from '#lib/protocol/secret-binding-check';

/** A binding as the Exchange stores one sent without the optional fields (as hzn sends them). */
const stored = { serviceOrgid: 'hello', serviceUrl: 'hello-secret', secrets: [{ app_secret: 'greeting' }] };

describe('secret bindings as the Exchange returns them', () => {
  it('read an absent enableNodeLevelSecrets as false (Go omitempty), not as a malformed binding', () => {
    expect(secretBindingSchema.parse(stored)).toEqual({ ...stored, enableNodeLevelSecrets: false });
  });

  it('resolve a service secret through a binding with no arch or version range', () => {
    const service = { org: 'hello', url: 'hello-secret', version: '1.0.0', arch: 'amd64' };
    const result = resolveSecretBindings(service, ['app_secret'], [secretBindingSchema.parse(stored)]);
    expect(result.ok).toBe(true);
    expect(result.bound?.map((b) => [b.serviceSecret, b.managerSecret])).toEqual([
      ['app_secret', 'greeting'],
    ]);
  });
});

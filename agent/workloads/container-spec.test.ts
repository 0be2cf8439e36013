import { describe, expect, it } from 'vitest';
import { DeploymentError, parseDeployment } from '#lib/protocol/deployment';
import { type ContainerPlan, containerSpec, LABELS } from './container-spec.ts';

const deployment = parseDeployment(
  JSON.stringify({
    services: {
      web: {
        image: 'example/web:1.0',
        command: ['sh', '-c', 'httpd -f'],
        environment: ['MODE=demo'],
        binds: ['/var/data:/data:ro'],
        ports: [{ HostPort: '8080:80/tcp', HostIP: '127.0.0.1' }, { HostPort: '9000' }],
        secrets: { token: { description: 'api token' } },
        futureField: { kept: true },
      },
    },
  }),
);
const plan = (overrides: Partial<ContainerPlan> = {}): ContainerPlan => ({
  key: 'ag1',
  serviceName: 'web',
  service: deployment.services.web as ContainerPlan['service'],
  env: ['A=1'],
  secretsDir: '/var/lib/agent/secrets/ag1',
  nodeMemoryMb: 512,
  allowPrivileged: false,
  ...overrides,
});

describe('containerSpec (docs/protocol.md#containers-networks-and-labels)', () => {
  it('names, labels and networks the container as upstream does', () => {
    const spec = containerSpec(plan());
    expect(spec.name).toBe('ag1-web');
    expect(spec.Labels).toMatchObject({ [LABELS.agreementId]: 'ag1', [LABELS.serviceName]: 'web' });
    expect(spec.Labels?.[LABELS.descriptionHash]).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(spec.HostConfig?.NetworkMode).toBe('ag1');
    expect(spec.NetworkingConfig?.EndpointsConfig?.ag1?.Aliases).toEqual(['web']);
    expect(spec.HostConfig?.RestartPolicy).toEqual({ Name: 'always' });
    expect(spec.Cmd).toEqual(['sh', '-c', 'httpd -f']);
    expect(spec.Env).toEqual(['A=1']);
  });

  it('mounts the secrets directory read-only at our path and upstream’s', () => {
    expect(containerSpec(plan()).HostConfig?.Binds).toEqual([
      '/var/data:/data:ro',
      '/var/lib/agent/secrets/ag1:/platform-secrets:ro',
      '/var/lib/agent/secrets/ag1:/open-horizon-secrets:ro',
    ]);
    expect(containerSpec(plan({ secretsDir: undefined })).HostConfig?.Binds).toEqual(['/var/data:/data:ro']);
  });

  it('maps ports, devices and the memory limit (the node’s memory when the deployment sets none)', () => {
    // A device hands over the host: mapped on a node that allows privileged services.
    const withDevice = { ...plan().service, devices: ['/dev/ttyUSB0'] };
    const spec = containerSpec(plan({ service: withDevice, allowPrivileged: true }));
    expect(spec.ExposedPorts).toEqual({ '80/tcp': {}, '9000/tcp': {} });
    expect(spec.HostConfig?.PortBindings).toEqual({
      '80/tcp': [{ HostPort: '8080', HostIp: '127.0.0.1' }],
      '9000/tcp': [{ HostPort: '9000', HostIp: '' }],
    });
    expect(spec.HostConfig?.Devices).toEqual([
      { PathOnHost: '/dev/ttyUSB0', PathInContainer: '/dev/ttyUSB0', CgroupPermissions: 'rwm' },
    ]);
    expect(spec.HostConfig?.Memory).toBe(512 * 1024 * 1024);
    const limited = { ...plan().service, max_memory_mb: 64 };
    expect(containerSpec(plan({ service: limited })).HostConfig?.Memory).toBe(64 * 1024 * 1024);
  });

  it('runs privileged only when the node policy allows it', () => {
    const privileged = { ...plan().service, privileged: true };
    expect(() => containerSpec(plan({ service: privileged }))).toThrow(DeploymentError);
    expect(containerSpec(plan({ service: privileged, allowPrivileged: true })).HostConfig?.Privileged).toBe(
      true,
    );
  });

  it('joins no bridge for network host', () => {
    // The host network hands over the host: built on a node that allows privileged services.
    const spec = containerSpec(
      plan({ service: { ...plan().service, network: 'host' }, allowPrivileged: true }),
    );
    expect(spec.HostConfig?.NetworkMode).toBe('host');
    expect(spec.NetworkingConfig).toBeUndefined();
  });

  describe('fields that hand over the host, only where the node allows privileged services', () => {
    const cases: Array<
      [string, Record<string, unknown>, (s: ReturnType<typeof containerSpec>) => unknown, unknown]
    > = [
      ['privileged', { privileged: true }, (s) => s.HostConfig?.Privileged, true],
      ['network host', { network: 'host' }, (s) => s.HostConfig?.NetworkMode, 'host'],
      ['the host’s /', { binds: ['/etc/../:/host'] }, (s) => s.HostConfig?.Binds?.[0], '/etc/../:/host'],
      ['/etc', { binds: ['//etc/:/etc'] }, (s) => s.HostConfig?.Binds?.[0], '//etc/:/etc'],
      ['/proc/1/root', { binds: ['/proc/1/root:/h'] }, (s) => s.HostConfig?.Binds?.[0], '/proc/1/root:/h'],
      [
        'the engine socket',
        { binds: ['/var/run/docker.sock:/var/run/docker.sock'] },
        (s) => s.HostConfig?.Binds?.[0],
        '/var/run/docker.sock:/var/run/docker.sock',
      ],
      ['a relative source', { binds: ['../../etc:/h'] }, (s) => s.HostConfig?.Binds?.[0], '../../etc:/h'],
      ['SYS_ADMIN', { cap_add: ['cap_sys_admin'] }, (s) => s.HostConfig?.CapAdd, ['cap_sys_admin']],
      ['ALL capabilities', { cap_add: ['ALL'] }, (s) => s.HostConfig?.CapAdd, ['ALL']],
      ['a device', { devices: ['/dev/mem'] }, (s) => s.HostConfig?.Devices?.[0]?.PathOnHost, '/dev/mem'],
    ];

    it.each(cases)('%s', (_name, fields, read, expected) => {
      const service = { ...plan().service, ...fields } as ContainerPlan['service'];
      expect(() => containerSpec(plan({ service }))).toThrow(DeploymentError);
      expect(() => containerSpec(plan({ service }))).toThrow(
        /^container web: .*, which the node policy does not allow$/,
      );
      expect(read(containerSpec(plan({ service, allowPrivileged: true })))).toEqual(expected);
    });

    it('the agent’s own paths too (its data directory), and only the same rule’s safe fields without it', () => {
      const hostAccess = { protectedPaths: ['/var/lib/agent'] };
      const service = { ...plan().service, binds: ['/var/lib/agent/secrets:/s:ro'] };
      expect(() => containerSpec(plan({ service, hostAccess }))).toThrow(/the host's \/var\/lib\/agent/);
      const safe = { ...plan().service, cap_add: ['NET_BIND_SERVICE'], binds: ['cache:/cache'] };
      expect(containerSpec(plan({ service: safe, hostAccess })).HostConfig?.CapAdd).toEqual([
        'NET_BIND_SERVICE',
      ]);
    });
  });

  it('refuses a malformed port', () => {
    const service = { ...plan().service, ports: [{ HostPort: '80:abc' }] };
    expect(() => containerSpec(plan({ service }))).toThrow(/ports: '80:abc'/);
  });
});

describe('parseDeployment', () => {
  it.each([
    ['not json', 'deployment is not JSON'],
    ['{"services":{}}', 'deployment.services is empty'],
    ['{"services":{"web":{}}}', 'deployment.services.web.image'],
    ['{"services":{"-x":{"image":"a"}}}', 'deployment.services.-x'],
    ['{"services":{"web":{"image":"a","privileged":"yes"}}}', 'deployment.services.web.privileged'],
  ])('%s → %s', (text, message) => {
    expect(() => parseDeployment(text)).toThrow(message);
  });
});

/**
 * The one rule for deployment fields that hand the host to a container (lib/protocol/privileged.ts):
 * each field, spelled as an attacker would, is found and named; what stays inside the container is not.
 */
import { describe, expect, it } from 'vitest';
import { parseDeployment } from '#lib/protocol/deployment';
import { bindRisk, normalizeHostPath } from '#lib/protocol/host-paths';
import {
  deploymentNeedsPrivilege,
  type HostAccess,
  type HostAccessOptions,
  hostAccessOf,
  privilegeRefusal,
} from '#lib/protocol/privileged';

const deployment = (service: Record<string, unknown>, others: Record<string, unknown> = {}) =>
  parseDeployment(JSON.stringify({ services: { ...others, web: { image: 'example/web:1', ...service } } }));
const fields = (service: Record<string, unknown>, options?: HostAccessOptions) =>
  hostAccessOf(deployment(service), options).map((a) => `${a.field} ${a.value}`);

describe('bind sources that hand over the host', () => {
  const host = [
    '/',
    '//',
    '/.',
    '/etc/..',
    '/etc/../',
    '/tmp/../../..',
    '/etc',
    '/etc/',
    '//etc//',
    '/./etc',
    '/etc/shadow',
    '/etc/cron.d',
    '/root/.ssh',
    '/home',
    '/home/pi/.ssh/authorized_keys',
    '/proc',
    '/proc/1/root',
    '/proc/sys/kernel',
    '/sys/fs/cgroup',
    '/dev',
    '/dev/mem',
    '/boot',
    '/run',
    '/run/containerd/containerd.sock',
    '/run/user/1000/podman/podman.sock',
    '/var/run',
    '/var/run/docker.sock',
    '/var/run/../run/docker.sock',
    '/var/lib/docker',
    '/var/lib/docker/overlay2',
    '/var/lib/containers/storage',
    '/var/horizon',
    '/var/spool/cron/crontabs',
    '/usr',
    '/usr/local/bin',
    '/bin',
    '/sbin',
    '/lib',
    '/lib/modules',
    '/lib64',
    '/var', // holds /var/run and /var/lib/docker
    '/var/lib', // holds /var/lib/docker
    '/srv/docker.sock', // an engine socket wherever it lies
    '/data/../etc/passwd',
  ];

  it.each(host)('%s', (source) => {
    for (const bind of [`${source}:/host`, `${source}:/host:ro`, `${source}:/host:rw,z`])
      expect(bindRisk(bind), bind).toBeTypeOf('string');
  });

  it('relative sources cannot be judged and are refused', () => {
    for (const source of ['./etc', '../etc', '~/x', '.', '..', ' /etc', ''])
      expect(bindRisk(`${source}:/host`), source).toBe('is neither an absolute host path nor a volume name');
  });

  it('named volumes and ordinary host directories stay with the container', () => {
    for (const bind of [
      'data:/data',
      'my_volume.1:/data:ro',
      '/var/data:/data:ro',
      '/srv/app:/app',
      '/opt/app/config:/config:ro',
      '/tmp/cache:/cache',
      '/var/log/app:/logs',
      '/mnt/usb:/usb',
      '/etcetera:/x', // a sibling that only starts like /etc
      '/devices:/x',
    ])
      expect(bindRisk(bind), bind).toBeUndefined();
  });

  it('normalizes as the kernel reads the path', () => {
    expect(normalizeHostPath('/etc/../')).toBe('/');
    expect(normalizeHostPath('//etc//x/./y/')).toBe('/etc/x/y');
    expect(normalizeHostPath('/../../etc')).toBe('/etc');
    expect(normalizeHostPath('etc')).toBeUndefined();
  });

  it('protects the paths the agent names and follows the host’s links when it can resolve them', () => {
    const agentData = { protectedPaths: ['/var/lib/agent/'] };
    expect(bindRisk('/var/lib/agent/secrets:/s', agentData)).toBe(
      "mounts a path under the host's /var/lib/agent",
    );
    expect(bindRisk('/var/lib/agent:/s', agentData)).toBe("mounts the host's /var/lib/agent");
    expect(bindRisk('/srv/app:/s', agentData)).toBeUndefined();
    // A link planted in a harmless directory (e.g. by an earlier container that could write there).
    const links = {
      resolve: (p: string) => (p.startsWith('/srv/app/link') ? p.replace('/srv/app/link', '/') : p),
    };
    expect(bindRisk('/srv/app/link:/host', links)).toBe("resolves to / and mounts the host's /");
    expect(bindRisk('/srv/app/link/etc:/host', links)).toBe("resolves to /etc and mounts the host's /etc");
    expect(bindRisk('/srv/app/data:/host', links)).toBeUndefined();
  });
});

describe('hostAccessOf(): every field that hands over the host', () => {
  it('privileged, and the host network under any spelling', () => {
    expect(fields({ privileged: true })).toEqual(['privileged true']);
    expect(fields({ privileged: false })).toEqual([]);
    for (const network of ['host', 'HOST', ' host '])
      expect(fields({ network })).toEqual([`network ${network}`]);
    expect(fields({ network: 'bridge' })).toEqual([]);
  });

  it('the host’s (or another container’s) pid and ipc namespaces', () => {
    expect(fields({ pid: 'host' })).toEqual(['pid host']);
    expect(fields({ ipc: 'Host' })).toEqual(['ipc Host']);
    expect(fields({ pid: 'container:agent' })).toEqual(['pid container:agent']);
    expect(fields({ ipc: 'private', pid: '' })).toEqual([]);
  });

  it('binds, each one named', () => {
    expect(
      fields({ binds: ['/var/data:/data', '/:/host', '/var/run/docker.sock:/var/run/docker.sock'] }),
    ).toEqual(['binds /:/host', 'binds /var/run/docker.sock:/var/run/docker.sock']);
  });

  it('any device', () => {
    expect(fields({ devices: ['/dev/ttyUSB0'] })).toEqual(['devices /dev/ttyUSB0']);
    expect(fields({ devices: [] })).toEqual([]);
  });

  it('capabilities beyond Docker’s default set, under any spelling', () => {
    for (const cap of [
      'SYS_ADMIN',
      'sys_admin',
      'CAP_SYS_ADMIN',
      ' cap_sys_ptrace ',
      'ALL',
      'NET_ADMIN',
      'SYS_MODULE',
      'DAC_READ_SEARCH',
      'BPF',
      '',
    ])
      expect(fields({ cap_add: [cap] }), cap).toEqual([`cap_add ${cap}`]);
    expect(fields({ cap_add: ['NET_BIND_SERVICE', 'chown', 'CAP_KILL', 'SETUID'] })).toEqual([]);
  });

  it('security options that lift a confinement (no-new-privileges only narrows)', () => {
    expect(
      fields({
        security_opt: ['seccomp=unconfined', 'no-new-privileges', 'apparmor:unconfined', 'label=disable'],
      }),
    ).toEqual([
      'security_opt seccomp=unconfined',
      'security_opt apparmor:unconfined',
      'security_opt label=disable',
    ]);
    expect(fields({ security_opt: ['no-new-privileges:true'] })).toEqual([]);
  });

  it('names the container, in every container of the deployment', () => {
    const found = hostAccessOf(deployment({}, { side: { image: 'x', binds: ['/etc/../:/host'] } }));
    expect(found).toEqual<HostAccess[]>([
      { container: 'side', field: 'binds', value: '/etc/../:/host', why: "mounts the host's /" },
    ]);
    expect(privilegeRefusal(found[0] as HostAccess)).toBe(
      'the service needs privileged mode, which the node policy does not allow (container side: binds "/etc/../:/host" mounts the host\'s /)',
    );
  });

  it('a deployment that keeps to itself needs no privilege', () => {
    const plain = deployment({
      binds: ['data:/data', '/var/data:/data:ro'],
      ports: [{ HostPort: '8080:80' }],
      cap_add: ['NET_BIND_SERVICE'],
      network: 'bridge',
      security_opt: ['no-new-privileges'],
    });
    expect(hostAccessOf(plain)).toEqual([]);
    expect(deploymentNeedsPrivilege(plain)).toBe(false);
  });
});

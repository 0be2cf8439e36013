import { describe, expect, it } from 'vitest';
import { type EnvironmentSources, renderValue, serviceEnvironment } from './environment.ts';

const sources = (overrides: Partial<EnvironmentSources> = {}): EnvironmentSources => ({
  node: {
    cpus: 2,
    memoryMb: 4096,
    arch: 'amd64',
    hardwareId: 'hw1',
    hostIps: ['10.0.0.2', '192.168.1.5'],
    allowPrivileged: false,
  },
  platform: {
    agreementId: 'ag1',
    nodeId: 'n1',
    org: 'acme',
    pattern: '',
    exchangeUrl: 'http://127.0.0.1:3090/v1',
  },
  userInputs: [],
  ...overrides,
});

const asMap = (env: string[]) =>
  new Map(env.map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]));

describe('serviceEnvironment (docs/protocol.md#environment-variables)', () => {
  it('starts with the node facts and ends with the platform variables', () => {
    const env = serviceEnvironment(sources());
    expect(env.slice(0, 6)).toEqual([
      'HZN_CPUS=2',
      'HZN_RAM=4096',
      'HZN_ARCH=amd64',
      'HZN_HARDWAREID=hw1',
      'HZN_PRIVILEGED=false',
      'HZN_HOST_IPS=10.0.0.2,192.168.1.5',
    ]);
    expect(env.slice(-6)).toEqual([
      'HZN_AGREEMENTID=ag1',
      'HZN_DEVICE_ID=n1',
      'HZN_NODE_ID=n1',
      'HZN_ORGANIZATION=acme',
      'HZN_PATTERN=',
      'HZN_EXCHANGE_URL=http://127.0.0.1:3090/v1/',
    ]);
  });

  it('lets node user input beat the deployment policy’s, which beats the service defaults', () => {
    const env = asMap(
      serviceEnvironment(
        sources({
          userInputs: [
            { GREETING: 'node' },
            { GREETING: 'policy', COLOR: 'blue' },
            { GREETING: 'default', COLOR: 'red', SIZE: 3 },
          ],
        }),
      ),
    );
    expect(env.get('GREETING')).toBe('node');
    expect(env.get('COLOR')).toBe('blue');
    expect(env.get('SIZE')).toBe('3');
  });

  it('never lets user input or the deployment environment replace a platform variable', () => {
    const env = serviceEnvironment(
      sources({
        userInputs: [{ HZN_ORGANIZATION: 'evil' }],
        deploymentEnvironment: ['HZN_NODE_ID=evil', 'MODE=fast'],
      }),
    );
    expect(env.filter((line) => line.startsWith('HZN_ORGANIZATION='))).toEqual(['HZN_ORGANIZATION=acme']);
    expect(env.filter((line) => line.startsWith('HZN_NODE_ID='))).toEqual(['HZN_NODE_ID=n1']);
    expect(env).toContain('MODE=fast');
  });

  it('leaves HZN_AGREEMENTID out for dependent services', () => {
    const env = serviceEnvironment(sources({ platform: { ...sources().platform, agreementId: undefined } }));
    expect(env.some((line) => line.startsWith('HZN_AGREEMENTID='))).toBe(false);
  });

  it('renders values as upstream does', () => {
    expect(renderValue('a b')).toBe('a b');
    expect(renderValue(true)).toBe('true');
    expect(renderValue(42)).toBe('42');
    expect(renderValue(1.5)).toBe('1.500000');
    expect(renderValue(['x', 'y'])).toBe('x y');
  });
});

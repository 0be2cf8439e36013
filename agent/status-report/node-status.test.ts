/** The node status as anax builds and compares it, and the errors it surfaces, from plain records. */
import type { ContainerInfo } from 'dockerode';
import { describe, expect, it } from 'vitest';
import { newAgreement } from '../agreements/store.ts';
import type { ProtocolAgreement } from '../protocol/records.ts';
import type { DependencyInstance } from '../services/dependency-store.ts';
import type { StoredEvent } from '../store/store.ts';
import { buildNodeStatus, type NodeStatusReport, sameNodeStatus } from './node-status.ts';
import { dropResolved, foldEvents, goTime } from './surfaced-errors.ts';

const deployment = (...names: string[]) =>
  JSON.stringify({ services: Object.fromEntries(names.map((n) => [n, { image: `img/${n}:1` }])) });

const agreement = (id: string, fields: Partial<ProtocolAgreement> = {}): ProtocolAgreement =>
  newAgreement(id, {
    agreement_creation_time: 1,
    agreement_accepted_time: 1,
    agreement_finalized_time: 1,
    proposal: JSON.stringify({
      tsandcs: JSON.stringify({
        header: { name: id, version: '2.0' },
        workloads: [{ deployment: deployment('web', 'db') }],
      }),
    }),
    workload_to_run: { url: 'svc.web', org: 'org1', version: '1.0.0', arch: 'amd64' },
    ...fields,
  }) as ProtocolAgreement;

const container = (name: string, state: string, created = 100): ContainerInfo =>
  ({
    Id: `id-${name}`,
    Names: [`/${name}`],
    Image: 'docker.io/img:1',
    Created: created,
    State: state,
  }) as ContainerInfo;

const instance = (key: string): DependencyInstance => ({
  instance_key: key,
  org: 'org1',
  url: 'svc.dep',
  version: '2.0.0',
  arch: 'amd64',
  sharable: 'multiple',
  deployment: deployment('dep'),
  requires: [],
  parents: ['a1'],
  instance_creation_time: 1,
  execution_start_time: 1,
});

describe('the node status', () => {
  it('lists each deployment service: the engine`s container, or `not started`; dependencies together, agreement ""', () => {
    const status = buildNodeStatus({
      agreements: [agreement('a1'), agreement('a2', { agreement_accepted_time: 0 })],
      instances: [instance('i1'), instance('i2')],
      containers: [container('a1-web', 'running'), container('i2-dep', 'exited', 7)],
      registered: [],
    });
    expect(status.services).toEqual([
      {
        agreementId: 'a1',
        serviceUrl: 'svc.web',
        orgid: 'org1',
        version: '1.0.0',
        arch: 'amd64',
        containerStatus: [
          { name: '/a1-web', image: 'docker.io/img:1', created: 100, state: 'running' },
          { name: 'db', image: 'img/db:1', created: 0, state: 'not started' },
        ],
        configState: 'active',
      },
      {
        agreementId: '',
        serviceUrl: 'svc.dep',
        orgid: 'org1',
        version: '2.0.0',
        arch: 'amd64',
        containerStatus: [
          { name: 'dep', image: 'img/dep:1', created: 0, state: 'not started' },
          { name: '/i2-dep', image: 'docker.io/img:1', created: 7, state: 'exited' },
        ],
        configState: 'active',
      },
    ]);
  });

  it('shows a container that exited since the last look `restarting` while the engine has it up again', () => {
    const states = (exited: string[]) =>
      buildNodeStatus({
        agreements: [agreement('a1')],
        instances: [instance('i1')],
        containers: [
          container('a1-web', 'running'),
          container('a1-db', 'exited'),
          container('i1-dep', 'stopped'),
        ],
        exited: new Set(exited),
        registered: [],
      }).services.map((s) => s.containerStatus.map((c) => c.state));
    expect(states([])).toEqual([['running', 'exited'], ['stopped']]);
    // An exited container stays down: its exit is no restart.
    expect(states(['id-a1-web', 'id-a1-db', 'id-i1-dep'])).toEqual([
      ['restarting', 'exited'],
      ['restarting'],
    ]);
  });

  it('marks a suspended registered service, and lists one that runs nothing', () => {
    const status = buildNodeStatus({
      agreements: [agreement('a1')],
      instances: [],
      containers: [],
      registered: [
        {
          url: 'org1/svc.web',
          configState: 'suspended',
          version: '',
          numAgreements: 0,
          policy: '',
          properties: [],
        },
        {
          url: 'org1/svc.other',
          configState: 'suspended',
          version: '3.0.0',
          numAgreements: 0,
          policy: '',
          properties: [],
        },
      ],
    });
    expect(status.services.map((s) => [s.serviceUrl, s.configState, s.containerStatus.length])).toEqual([
      ['svc.web', 'suspended', 2],
      ['svc.other', 'suspended', 0],
    ]);
  });

  it('is the same when only the order differs, not when a state or a creation time does', () => {
    const report = (state: string, created: number): NodeStatusReport =>
      buildNodeStatus({
        agreements: [agreement('a1'), agreement('a2')],
        instances: [],
        containers: [container('a1-web', state, created), container('a2-web', 'running')],
        registered: [],
      });
    const base = report('running', 100);
    expect(sameNodeStatus(base, { services: [...base.services].reverse() })).toBe(true);
    expect(sameNodeStatus(base, report('exited', 100))).toBe(false);
    expect(sameNodeStatus(base, report('running', 101))).toBe(false);
    expect(sameNodeStatus(undefined, base)).toBe(false);
  });
});

const event = (id: number, code: string, url: string, severity = 'error'): StoredEvent => ({
  record_id: String(id),
  timestamp: 1_700_000_000 + id,
  severity,
  message: `${code} for ${url}`,
  event_code: code,
  source_type: 'agreement',
  event_source: {
    agreement_id: `a${id}`,
    workload_to_run: { url, org: 'org1', version: '1.0.0', arch: 'amd64' },
  },
});

describe('the surfaced errors', () => {
  it('keep one per workload (the newest), only of anax`s surfaced codes, in its shape', () => {
    const errors = foldEvents(
      [],
      [
        event(1, 'error_image_load', 'svc.a'),
        event(2, 'container_running', 'svc.a', 'info'),
        event(3, 'error_start_container', 'svc.b'),
        event(4, 'error_start_container', 'svc.a'),
      ],
    );
    expect(errors).toEqual([
      {
        record_id: '4',
        message: 'error_start_container for svc.a',
        event_code: 'error_start_container',
        hidden: false,
        workload: { url: 'svc.a', org: 'org1', version: '1.0.0', arch: 'amd64' },
        timestamp: goTime(1_700_000_004),
      },
      expect.objectContaining({ record_id: '3', workload: expect.objectContaining({ url: 'svc.b' }) }),
    ]);
    expect(goTime(0)).toBe('1970-01-01 00:00:00 +0000 UTC');
  });

  it('keep `hidden` while the code stays the same; name the workload of a bare agreement event', () => {
    const hidden = foldEvents([], [event(1, 'error_start_container', 'svc.a')]).map((e) => ({
      ...e,
      hidden: true,
    }));
    expect(foldEvents(hidden, [event(2, 'error_start_container', 'svc.a')])[0]?.hidden).toBe(true);
    expect(foldEvents(hidden, [event(3, 'error_image_load', 'svc.a')])[0]?.hidden).toBe(false);
    const bare = { ...event(5, 'dependent_service_failed', ''), event_source: { agreement_id: 'a5' } };
    const named = foldEvents([], [bare], (id) =>
      id === 'a5' ? { url: 'svc.c', org: 'org1', version: '1.0.0', arch: 'amd64' } : undefined,
    );
    expect(named.map((e) => e.workload.url)).toEqual(['svc.c']);
  });

  it('go once an agreement for the same workload lasted 90 s since it was finalized', () => {
    const errors = foldEvents([], [event(1, 'error_start_container', 'svc.web')]);
    const finalizedAt = 1_000;
    const lasting = [agreement('a9', { agreement_finalized_time: finalizedAt })];
    expect(dropResolved(errors, lasting, finalizedAt + 89)).toHaveLength(1);
    expect(dropResolved(errors, lasting, finalizedAt + 90)).toEqual([]);
    const ended = [
      agreement('a9', { agreement_finalized_time: finalizedAt, agreement_terminated_time: 1_050 }),
    ];
    expect(dropResolved(errors, ended, finalizedAt + 500)).toHaveLength(1);
  });
});

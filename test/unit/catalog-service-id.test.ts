import { describe, expect, it } from 'vitest';
import { serviceId } from '#lib/catalog/service-id';

describe('serviceId (docs/exchange-catalog.md#service-ids-and-references)', () => {
  it.each([
    ['https://horizon/services/rtlsdr', '1.0.0', 'amd64', 'horizon-services-rtlsdr_1.0.0_amd64'],
    ['svc9920', '1.0.0', 'arm', 'svc9920_1.0.0_arm'],
    ['http://h:8080/a?x=1', '2', 'arm64', 'h:8080-a-x-1_2_arm64'],
    ['my.svc+x://a$b!c*d,e;f/g?h@i&j~k=l%m', '1.2', 'amd64', 'a-b-c-d-e-f-g-h-i-j-k-l-m_1.2_amd64'],
    ['noscheme/a://b', '1', 'x', 'noscheme-a:--b_1_x'],
  ])('%s %s %s → %s', (url, version, arch, id) => {
    expect(serviceId(url, version, arch)).toBe(id);
  });
});

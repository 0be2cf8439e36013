import { describe, expect, it } from 'vitest';
import { classifyReason, failureLabel } from '#lib/rollout/verdict';

describe('reason classes', () => {
  it.each([103, 104, 108, 109, 110, 112, 113, 114, 115, 117, 118, 202, 210])(
    '%i is a failure of the release',
    (code) => expect(classifyReason(code)).toBe('failure'),
  );
  it.each([107, 122, 201, 208, 209])('%i is offline', (code) => expect(classifyReason(code)).toBe('offline'));
  it.each([101, 105, 106, 116, 119, 120, 121, 204, 207, 999, 4242, undefined])('%s is neutral', (code) =>
    expect(classifyReason(code)).toBe('neutral'),
  );
  it('names a failure by its code and description', () =>
    expect(failureLabel(103)).toBe('103 service terminated'));
});

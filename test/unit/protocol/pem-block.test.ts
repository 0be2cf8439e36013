import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { firstPemBlock } from '#lib/protocol/pem-block';

/** The pattern firstPemBlock replaces (kept here only as the reference for its meaning). */
const BACKTRACKING = /-----BEGIN ([A-Z0-9 ]+)-----[\s\S]+?-----END \1-----/;
const reference = (text: string) => {
  const match = BACKTRACKING.exec(text);
  return match ? { pem: match[0], label: match[1] } : undefined;
};

describe('firstPemBlock', () => {
  it('finds what the backtracking pattern finds, on texts made of marker fragments', () => {
    const fragment = fc.constantFrom(
      '-----BEGIN ',
      '-----END ',
      '-----',
      'A',
      'B',
      'CERT',
      ' ',
      'x',
      '\n',
      '-',
    );
    fc.assert(
      fc.property(fc.array(fragment, { maxLength: 40 }), (parts) => {
        const text = parts.join('');
        expect(firstPemBlock(text)).toEqual(reference(text));
      }),
      { seed: 8, numRuns: 5000 },
    );
  });

  it('reads a real block with text around it', () => {
    const text = 'junk\n-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\ntrailer';
    expect(firstPemBlock(text)).toEqual({
      pem: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----',
      label: 'CERTIFICATE',
    });
  });

  it('stays linear on a megabyte of BEGIN markers without an END (the pattern would scan ~10^11 characters)', () => {
    const same = '-----BEGIN A-----x'.repeat(60_000);
    const distinct = Array.from({ length: 40_000 }, (_, i) => `-----BEGIN L${i}-----x`).join('');
    const unclosed = `-----BEGIN ${'A'.repeat(1_000_000)}`;
    for (const text of [same, distinct, unclosed]) {
      const started = performance.now();
      expect(firstPemBlock(text)).toBeUndefined();
      // Linear: a few milliseconds per megabyte. The bound is generous; quadratic would take hours.
      expect(performance.now() - started).toBeLessThan(1000);
    }
  });
});

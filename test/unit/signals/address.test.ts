import { describe, expect, it } from 'vitest';
import { usableSignalsUrl } from '#lib/signals/address';

describe('the signal channel address a client accepts', () => {
  it('takes wss:// always, and ws:// only from an Exchange reached over plain HTTP', () => {
    expect(usableSignalsUrl('wss://abc.execute-api.eu-west-1.amazonaws.com/prod', 'https://x/v1')).toBe(
      'wss://abc.execute-api.eu-west-1.amazonaws.com/prod',
    );
    expect(usableSignalsUrl('ws://127.0.0.1:3092', 'http://127.0.0.1:3090/v1')).toBe('ws://127.0.0.1:3092');
    // The upgrade carries the node's credentials: never in clear where the HTTP requests were not.
    expect(usableSignalsUrl('ws://evil.example:80', 'https://exchange.example/v1')).toBeUndefined();
  });

  it('ignores anything else', () => {
    for (const announced of [undefined, '', 'http://x', 'not a url', ['wss://x'], 42])
      expect(usableSignalsUrl(announced, 'http://x/v1')).toBeUndefined();
  });
});

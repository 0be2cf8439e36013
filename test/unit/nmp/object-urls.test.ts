import { describe, expect, it } from 'vitest';
import { signLocalUrl, verifyLocalUrl } from '#functions/objects/shared/local-url';
import { presignS3 } from '#functions/objects/shared/s3-presign';

describe('signed URLs of object data', () => {
  it("presigns S3 as AWS's documented example (GET examplebucket/test.txt, 2013-05-24, 86400 s)", () => {
    const url = presignS3({
      bucket: 'examplebucket',
      host: 'examplebucket.s3.amazonaws.com',
      region: 'us-east-1',
      key: 'test.txt',
      method: 'GET',
      expiresSeconds: 86400,
      now: new Date('2013-05-24T00:00:00Z'),
      credentials: {
        accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
        secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      },
    });
    expect(url).toBe(
      'https://examplebucket.s3.amazonaws.com/test.txt?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400&X-Amz-SignedHeaders=host&X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404',
    );
  });

  it('local URLs verify for their method and key until they expire', () => {
    const secret = 'ab'.repeat(32);
    const url = new URL(signLocalUrl('http://127.0.0.1:9', secret, 'GET', 'objects/IBM/t/a b', 1000));
    const pathAndQuery = `${url.pathname}${url.search}`;
    expect(verifyLocalUrl(secret, 'GET', pathAndQuery, 999)).toBe('objects/IBM/t/a b');
    expect(verifyLocalUrl(secret, 'GET', pathAndQuery, 1001)).toBeUndefined();
    expect(verifyLocalUrl(secret, 'PUT', pathAndQuery, 999)).toBeUndefined();
    expect(verifyLocalUrl('cd'.repeat(32), 'GET', pathAndQuery, 999)).toBeUndefined();
    expect(
      verifyLocalUrl(secret, 'GET', pathAndQuery.replace('expires=1000', 'expires=2000'), 999),
    ).toBeUndefined();
  });
});

import { expect, it } from 'vitest';
import { createOrg, createUser, expectStatus, freshId } from '#test/support/world';
import { useSharedOffline } from './support/shared-offline.ts';

/**
 * Services over HTTP as `hzn` sends them: a key PUT as text/plain comes back byte for byte, and
 * every service route is in GET /v1/openapi.json.
 */
const server = useSharedOffline();
const ORG = freshId('svc-http');

it('stores a text/plain key verbatim and lists every service route in the OpenAPI document', async () => {
  const root = { user: 'root/root', secret: server.rootPassword };
  const fixtures = { http: server.http, root };
  await createOrg(fixtures, ORG);
  const alice = await createUser(fixtures, ORG, 'alice');
  const body = {
    label: 'gps',
    url: 'https://example.com/gps',
    version: '1.0.0',
    arch: 'arm64',
    sharable: 'single',
  };
  expectStatus(
    await server.http('POST', `/v1/orgs/${ORG}/services`, { auth: alice, body }),
    201,
    'POST service',
  );
  const keyPath = `/v1/orgs/${ORG}/services/example.com-gps_1.0.0_arm64/keys/signer.pem`;
  const pem = '-----BEGIN CERTIFICATE-----\nMIIB+zCCAWSgAwIBAgIU\n-----END CERTIFICATE-----\n';
  const put = await server.http('PUT', keyPath, {
    auth: alice,
    body: pem,
    headers: { 'content-type': 'text/plain' },
  });
  expect(put.status, put.text).toBe(201);
  const got = await server.http('GET', keyPath, { auth: alice });
  expect(got.status).toBe(200);
  expect(got.headers.get('content-type')).toMatch(/^text\/plain/);
  expect(got.text).toBe(pem);
  const document = await server.http('GET', '/v1/openapi.json', { auth: alice });
  const paths = Object.keys(document.body.paths).filter((p) => /\/services(\/|$)/.test(p));
  expect(paths.sort()).toEqual(
    [
      '/v1/catalog/services',
      '/v1/services',
      '/v1/orgs/{organization}/services',
      '/v1/orgs/{organization}/services/{service}',
      '/v1/orgs/{organization}/services/{service}/policy',
      '/v1/orgs/{organization}/services/{service}/keys',
      '/v1/orgs/{organization}/services/{service}/keys/{keyid}',
      '/v1/orgs/{organization}/services/{service}/dockauths',
      '/v1/orgs/{organization}/services/{service}/dockauths/{dockauthid}',
    ].sort(),
  );
});

import type { Context } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { dispatcherWith, type LambdaHandler, preloadedHandler } from '#lib/http/dispatch';
import type { APIGatewayProxyEventV2 } from '#lib/http/lambda-types';
import type { ResourceDoc, RouteDoc } from '#lib/openapi/route';

const answer =
  (status: number): LambdaHandler =>
  async () => ({ statusCode: status, headers: {}, body: '' });
const event = (path: string) =>
  ({ rawPath: path, requestContext: { http: { method: 'GET', path } } }) as unknown as APIGatewayProxyEventV2;

/** A family of one route whose module loads as `modules` say, one after the other. */
function family(modules: unknown[]): { routes: ResourceDoc; loads: () => number } {
  let loads = 0;
  const route = {
    method: 'GET',
    path: '/v1/things',
    operationId: 'getThings',
    summary: 'things',
    responses: {},
    handler: async () => modules[Math.min(loads++, modules.length - 1)],
  } as unknown as RouteDoc;
  return {
    routes: {
      folder: 'things',
      tag: 'things',
      description: '',
      mounts: [],
      routes: [route],
    } as unknown as ResourceDoc,
    loads: () => loads,
  };
}

describe("a family's dispatcher", () => {
  it('loads every handler at start, and a load that failed then is tried again by the first request, with no unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const record = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', record);
    try {
      const { routes, loads } = family([{}, { handler: answer(200) }]);
      const dispatch = dispatcherWith({ unrecognizedRoute: answer(404), malformedPath: answer(400) })(routes);
      await new Promise((resolve) => setImmediate(resolve));
      expect(loads()).toBe(1);
      expect((await dispatch(event('/v1/things'), {} as Context)).statusCode).toBe(200);
      expect(loads()).toBe(2);
      expect((await dispatch(event('/v1/things'), {} as Context)).statusCode).toBe(200);
      expect(loads()).toBe(2);
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', record);
    }
  });

  it('fails the request of a route whose module has no handler, every time', async () => {
    const { routes } = family([{}]);
    const dispatch = dispatcherWith({ unrecognizedRoute: answer(404), malformedPath: answer(400) })(routes);
    await expect(dispatch(event('/v1/things'), {} as Context)).rejects.toThrow(
      'getThings: its handler module exports no handler',
    );
    expect((await dispatch(event('/v1/nothing'), {} as Context)).statusCode).toBe(404);
  });
});

describe('a preloaded handler (the secrets Lambda keeps its one-secret routes so)', () => {
  it('leaves no unhandled rejection when its load at start fails and nobody asks for it', async () => {
    const unhandled: unknown[] = [];
    const record = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', record);
    try {
      const { routes, loads } = family([{}, { handler: answer(201) }]);
      const handler = preloadedHandler(routes.routes[0] as RouteDoc);
      await new Promise((resolve) => setImmediate(resolve));
      expect(loads()).toBe(1);
      expect(unhandled).toEqual([]);
      const loaded = await handler();
      expect(loads()).toBe(2);
      expect((await loaded(event('/v1/things'), {} as Context)).statusCode).toBe(201);
    } finally {
      process.off('unhandledRejection', record);
    }
  });
});

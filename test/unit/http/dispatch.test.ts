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

/** Runs `work` given the list of unhandled rejections seen while it runs (listening only then). */
async function watchingUnhandled(work: (unhandled: unknown[]) => Promise<void>): Promise<void> {
  const unhandled: unknown[] = [];
  const record = (reason: unknown) => unhandled.push(reason);
  process.on('unhandledRejection', record);
  try {
    await work(unhandled);
  } finally {
    process.off('unhandledRejection', record);
  }
}

/** Lets pending promise callbacks (a load's rejection) run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe("a family's dispatcher", () => {
  it('loads every handler at start, and a load that failed then is tried again by the first request, with no unhandled rejection', () =>
    watchingUnhandled(async (unhandled) => {
      const { routes, loads } = family([{}, { handler: answer(200) }]);
      const dispatch = dispatcherWith({ unrecognizedRoute: answer(404), malformedPath: answer(400) })(routes);
      await settle();
      expect(loads()).toBe(1);
      expect((await dispatch(event('/v1/things'), {} as Context)).statusCode).toBe(200);
      expect(loads()).toBe(2);
      expect((await dispatch(event('/v1/things'), {} as Context)).statusCode).toBe(200);
      expect(loads()).toBe(2);
      await settle();
      expect(unhandled).toEqual([]);
    }));

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
  it('leaves no unhandled rejection when its load at start fails and nobody asks for it', () =>
    watchingUnhandled(async (unhandled) => {
      const { routes, loads } = family([{}, { handler: answer(201) }]);
      const handler = preloadedHandler(routes.routes[0] as RouteDoc);
      await settle();
      expect(loads()).toBe(1);
      expect(unhandled).toEqual([]);
      const loaded = await handler();
      expect(loads()).toBe(2);
      expect((await loaded(event('/v1/things'), {} as Context)).statusCode).toBe(201);
    }));
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { openApiDocument } from '#functions/openapi/document';

/** Every route serverless.yml deploys is in the document, and the document has no other route. */
const root = join(import.meta.dirname, '..', '..', '..');
const readYaml = (file: string) => parse(readFileSync(join(root, file), 'utf8'), { logLevel: 'error' });

interface HttpApiEvent {
  httpApi?: { method: string; path: string };
}

/** The `${file(...)}` route files serverless.yml lists. */
const routeFiles = (): string[] =>
  (readYaml('serverless.yml').functions as string[]).map(
    (entry) => /\$\{file\(\.\/(.+)\)\}/.exec(entry)?.[1] ?? entry,
  );

function deployedRoutes(): string[] {
  const routes: string[] = [];
  for (const file of routeFiles()) {
    const functions = readYaml(file) as Record<string, { events?: HttpApiEvent[] }>;
    for (const fn of Object.values(functions)) {
      for (const { httpApi } of fn.events ?? []) {
        // The catch-all fallback (`*` /{proxy+}) answers unknown routes; it is not an operation.
        if (httpApi && httpApi.method !== '*') routes.push(`${httpApi.method.toUpperCase()} ${httpApi.path}`);
      }
    }
  }
  return routes.sort();
}

function documentedRoutes(): string[] {
  const { paths } = openApiDocument();
  return Object.entries(paths)
    .flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`))
    .sort();
}

describe('OpenAPI document vs serverless.yml', () => {
  it('reads the route files serverless.yml lists', () => {
    expect(deployedRoutes()).toContain('GET /v1/orgs/{organization}/nodes/{node}');
    expect(deployedRoutes()).toContain('GET /v1/openapi.json');
  });

  it('documents every deployed route, with the same method and path', () => {
    const documented = new Set(documentedRoutes());
    expect(deployedRoutes().filter((route) => !documented.has(route))).toEqual([]);
  });

  it('documents no route that is not deployed', () => {
    const deployed = new Set(deployedRoutes());
    expect(documentedRoutes().filter((route) => !deployed.has(route))).toEqual([]);
  });

  it('uses each function name of functions.yml as the operationId of its route', () => {
    const { paths } = openApiDocument();
    for (const file of routeFiles()) {
      const functions = readYaml(file) as Record<string, { events?: HttpApiEvent[] }>;
      for (const [name, fn] of Object.entries(functions)) {
        for (const { httpApi } of fn.events ?? []) {
          if (!httpApi || httpApi.method === '*') continue;
          const operation = paths[httpApi.path]?.[httpApi.method.toLowerCase()];
          expect(operation?.operationId, `${httpApi.method} ${httpApi.path}`).toBe(name);
        }
      }
    }
  });
});

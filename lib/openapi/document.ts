import * as z from 'zod';
import { apiResponse, errorResponse } from './common.ts';
import { componentRef, type JsonSchema, objectSchema, registryToComponents } from './convert.ts';
import type { ResourceDoc, ResponseDoc, RouteDoc } from './route.ts';

/**
 * Builds the OpenAPI 3.1 document from the resources' route lists. Request bodies and responses
 * go to `components.schemas` (named by the resource, else after their route) and are referenced;
 * path and query schemas become parameters.
 */
interface DocumentInfo {
  title: string;
  version: string;
  description: string;
}

export type OpenApiDocument = {
  openapi: '3.1.0';
  info: DocumentInfo;
  tags: { name: string; description: string }[];
  paths: Record<string, Record<string, JsonSchema>>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes: Record<string, JsonSchema> };
};

const pascal = (id: string) => id.charAt(0).toUpperCase() + id.slice(1);
const templateParams = (path: string) => [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);

/** Names schemas in one registry: the first name given to a schema is its name everywhere. */
class Names {
  readonly registry = z.registry<{ id: string }>();
  private readonly taken = new Set<string>();

  name(schema: z.ZodType, wanted: string): string {
    const existing = this.registry.get(schema)?.id;
    if (existing) return existing;
    if (this.taken.has(wanted)) throw new Error(`two different schemas are both named ${wanted}`);
    this.taken.add(wanted);
    this.registry.add(schema, { id: wanted });
    return wanted;
  }
}

function parameters(route: RouteDoc): JsonSchema[] {
  const inPath = templateParams(route.path);
  const path = route.request?.path ? objectSchema(route.request.path) : { properties: {}, required: [] };
  const declared = Object.keys(path.properties);
  if (inPath.join() !== declared.join()) {
    throw new Error(
      `${route.operationId}: path has {${inPath.join('}, {')}} but its schema ${declared.join()}`,
    );
  }
  const query = route.request?.query ? objectSchema(route.request.query) : { properties: {}, required: [] };
  return [
    ...declared.map((name) => ({ name, in: 'path', required: true, schema: path.properties[name] })),
    ...Object.entries(query.properties).map(([name, schema]) => ({
      name,
      in: 'query',
      required: query.required.includes(name),
      schema,
    })),
  ];
}

function response(doc: ResponseDoc, name: string | undefined): JsonSchema {
  if (doc.text) {
    const media = doc.text === true ? 'text/plain' : doc.text;
    return { description: doc.description, content: { [media]: { schema: { type: 'string' } } } };
  }
  if (!name) return { description: doc.description };
  return {
    description: doc.description,
    content: { 'application/json': { schema: { $ref: componentRef(name) } } },
  };
}

function operation(route: RouteDoc, tag: string, inputs: Names, outputs: Names): JsonSchema {
  const name = pascal(route.operationId);
  const body = route.request?.body ?? route.request?.rawBody;
  const responses = Object.entries(route.responses).map(([status, doc]) => [
    status,
    response(doc, doc.schema && outputs.name(doc.schema, `${name}${status}Response`)),
  ]);
  return {
    operationId: route.operationId,
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    tags: [tag],
    security: route.anonymous ? [] : [{ basicAuth: [] }],
    parameters: parameters(route),
    ...(body && {
      requestBody: {
        required: true,
        content: {
          'application/json': { schema: { $ref: componentRef(inputs.name(body, `${name}Request`)) } },
        },
      },
    }),
    responses: Object.fromEntries(responses),
  };
}

/** Request and response components together; a name may be both only for one same schema. */
function mergeComponents(requests: Record<string, JsonSchema>, responses: Record<string, JsonSchema>) {
  for (const [name, schema] of Object.entries(requests)) {
    const other = responses[name];
    if (other && JSON.stringify(other) !== JSON.stringify(schema)) {
      throw new Error(`${name} differs between requests and responses`);
    }
  }
  return { ...responses, ...requests };
}

export function buildDocument(resources: ResourceDoc[], info: DocumentInfo): OpenApiDocument {
  const inputs = new Names();
  const outputs = new Names();
  outputs.name(apiResponse, 'ApiResponse');
  outputs.name(errorResponse, 'ErrorResponse');
  for (const resource of resources) {
    for (const [name, schema] of Object.entries(resource.components ?? {})) outputs.name(schema, name);
    for (const [name, schema] of Object.entries(resource.requests ?? {})) inputs.name(schema, name);
  }
  const paths: OpenApiDocument['paths'] = {};
  const operationIds = new Set<string>();
  for (const resource of resources) {
    for (const route of resource.routes) {
      if (operationIds.has(route.operationId)) throw new Error(`operationId ${route.operationId} used twice`);
      operationIds.add(route.operationId);
      const item = paths[route.path] ?? {};
      paths[route.path] = item;
      const method = route.method.toLowerCase();
      if (item[method]) throw new Error(`${route.method} ${route.path} documented twice`);
      item[method] = operation(route, resource.tag, inputs, outputs);
    }
  }
  const schemas = mergeComponents(
    registryToComponents(inputs.registry, 'input'),
    registryToComponents(outputs.registry, 'output'),
  );
  return {
    openapi: '3.1.0',
    info,
    tags: resources.map((r) => ({ name: r.tag, description: r.description })),
    paths,
    components: {
      schemas,
      securitySchemes: {
        basicAuth: {
          type: 'http',
          scheme: 'basic',
          description: 'user name `<org>/<user, node or agbot id>`, password the password or token',
        },
      },
    },
  };
}

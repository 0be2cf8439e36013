import * as z from 'zod';

/** The shape of GET /v1/openapi.json: an OpenAPI 3.1 document (its details are OpenAPI's). */
const jsonObject = z.record(z.string(), z.json());

export const openApiResponse = z.object({
  openapi: z.literal('3.1.0'),
  info: z.object({ title: z.string(), version: z.string(), description: z.string() }),
  tags: z.array(z.object({ name: z.string(), description: z.string() })),
  paths: z.record(z.string(), jsonObject),
  components: z.object({ schemas: jsonObject, securitySchemes: jsonObject }),
});

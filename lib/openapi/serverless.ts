import type { ResourceDoc } from './route.ts';

/** serverless.yml's `functions:`, generated from the route lists (functions/serverless-functions.cjs). */
interface ServerlessFunction {
  handler: string;
  events: { httpApi: { method: '*'; path: string } }[];
}

interface Fallback {
  name: string;
  handler: string;
  mount: string;
}

/** `agbot-agreements` → `agbotAgreements`: the function's name (CloudFormation logical ids follow it). */
export const functionName = (folder: string): string =>
  folder.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());

const anyMethod = (path: string) => ({ httpApi: { method: '*' as const, path } });

/** One function per family, reached through its mounts (method ANY); the catch-all last. */
export function serverlessFunctions(
  families: ResourceDoc[],
  fallback: Fallback,
): Record<string, ServerlessFunction> {
  const functions: Record<string, ServerlessFunction> = {};
  for (const family of families) {
    functions[functionName(family.folder)] = {
      handler: `functions/${family.folder}/lambda.handler`,
      events: family.mounts.map(anyMethod),
    };
  }
  functions[fallback.name] = {
    handler: `functions/${fallback.handler}.handler`,
    events: [anyMethod(fallback.mount)],
  };
  return functions;
}

import { dispatcher } from '#functions/dispatch';
import { handler as deletePattern } from './delete-pattern.ts';
import { handler as deletePatternKey } from './delete-pattern-key.ts';
import { handler as deletePatternKeys } from './delete-pattern-keys.ts';
import { handler as getPattern } from './get-pattern.ts';
import { handler as getPatternKey } from './get-pattern-key.ts';
import { handler as listPatternKeys } from './list-pattern-keys.ts';
import { handler as listPatterns } from './list-patterns.ts';
import { handler as patchPattern } from './patch-pattern.ts';
import { handler as patternNodeHealth } from './pattern-node-health.ts';
import { handler as postPattern } from './post-pattern.ts';
import { handler as putPattern } from './put-pattern.ts';
import { handler as putPatternKey } from './put-pattern-key.ts';
import { patternsRoutes } from './routes.ts';
import { handler as searchPattern } from './search-pattern.ts';

/** The deployment patterns family's one Lambda: routes each request to its endpoint's handler (routes.ts). */
export const handler = dispatcher(patternsRoutes, {
  'patterns/list-patterns': listPatterns,
  'patterns/get-pattern': getPattern,
  'patterns/post-pattern': postPattern,
  'patterns/put-pattern': putPattern,
  'patterns/patch-pattern': patchPattern,
  'patterns/delete-pattern': deletePattern,
  'patterns/list-pattern-keys': listPatternKeys,
  'patterns/delete-pattern-keys': deletePatternKeys,
  'patterns/get-pattern-key': getPatternKey,
  'patterns/put-pattern-key': putPatternKey,
  'patterns/delete-pattern-key': deletePatternKey,
  'patterns/search-pattern': searchPattern,
  'patterns/pattern-node-health': patternNodeHealth,
});

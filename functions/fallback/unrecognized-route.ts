import { unrecognizedRoute } from '#lib/http/fallback';

/**
 * Every path no family mounts (`ANY /{proxy+}`, the least specific route): credentials first
 * (401), then a JSON 404. Families answer their own unknown paths the same way (lib/http/dispatch.ts).
 */
export const handler = unrecognizedRoute;

import { unrecognizedRoute } from '#functions/dispatch';

/**
 * Every path no family mounts (`ANY /{proxy+}`, the least specific route): credentials first
 * (401), then a JSON 404. Families answer their own unknown paths the same way (functions/dispatch.ts).
 */
export const handler = unrecognizedRoute;

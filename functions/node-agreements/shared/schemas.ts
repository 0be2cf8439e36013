import * as z from 'zod';
import { nodePath } from '#functions/nodes/schemas';
import { idSegment } from '#lib/ids';

/**
 * Request schemas of the node agreement endpoints (docs/exchange.md#node-agreements, docs/exchange-catalog.md#node-sub-resources). Bodies are strict
 * (upstream rejects unknown properties); `null` counts as absent; lengths are bounded so a record
 * fits in one item.
 */
export const agreementsPath = nodePath;
export const agreementPath = nodePath.extend({ agid: idSegment });
export type AgreementPath = z.infer<typeof agreementPath>;

const MAX_TEXT = 4096;
const text = z.string().max(MAX_TEXT, `must be at most ${MAX_TEXT} characters`);

/** anax leaves `orgid` and `url` out when empty (`omitempty`): absent or null is "". */
export const agreementService = z.strictObject({
  orgid: text.nullish().transform((v) => v ?? ''),
  pattern: text,
  url: text.nullish().transform((v) => v ?? ''),
});

/** `services` lists the terms' API specs; `agreementService.url` is `<svcOrg>/<svcUrl>`. */
export const putAgreementBody = z.strictObject({
  services: z
    .array(z.strictObject({ orgid: text, url: text }))
    .max(100, 'must have at most 100 entries')
    .nullish(),
  agreementService: agreementService.nullish(),
  state: text,
});
export type PutAgreementBody = z.infer<typeof putAgreementBody>;

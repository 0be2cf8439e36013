import * as z from 'zod';
import { agbotPath } from '#functions/agbots/shared/schemas';
import { idSegment } from '#lib/ids';

/**
 * Request schemas of the agbot agreement endpoints (docs/exchange.md#agbot-agreements). Bodies are strict
 * (upstream rejects unknown properties); lengths are bounded so a record fits in one item.
 */
export const agreementsPath = agbotPath;
export const agreementPath = agbotPath.extend({ agreement: idSegment });
export type AgreementPath = z.infer<typeof agreementPath>;

const MAX_TEXT = 4096;
const text = z.string().max(MAX_TEXT, `must be at most ${MAX_TEXT} characters`);

export const agreementService = z.strictObject({ orgid: text, pattern: text, url: text });

export const putAgreementBody = z.strictObject({ service: agreementService, state: text });
export type PutAgreementBody = z.infer<typeof putAgreementBody>;

export const confirmAgreementBody = z.strictObject({ agreementId: idSegment });

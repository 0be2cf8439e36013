import { randomBytes } from 'node:crypto';
import * as z from 'zod';

/**
 * An agreement id is 64 lowercase hex characters (32 random bytes), as anax's agbot makes them
 * (cutil.GenerateAgreementId). Both sides use it in names on the node (containers, networks,
 * secret folders), so a message carrying anything else is refused rather than trusted.
 */
const AGREEMENT_ID = /^[0-9a-f]{64}$/;

export const newAgreementId = (): string => randomBytes(32).toString('hex');

export const isAgreementId = (text: string): boolean => AGREEMENT_ID.test(text);

export const agreementIdSchema = z.string().regex(AGREEMENT_ID, 'must be 64 lowercase hex characters');

import { Logger } from '@aws-lambda-powertools/logger';
import { isSecretKey, REDACTED } from './log-redaction.ts';

/**
 * The Exchange's logger: Powertools for AWS Lambda, one JSON object per line on stdout/stderr
 * (CloudWatch and humans both read it). Callers pass a message and a few whitelisted fields (ids,
 * method, path, a described error), never a header, a body, an event, a password or a token; and
 * whatever they pass, a value under a secret-looking key is printed as `[redacted]`.
 */
type Fields = Record<string, unknown>;

const logger = new Logger({
  serviceName: 'open-exchange',
  // Runs on every key of every line, nested ones and Powertools' own included.
  jsonReplacerFn: (key, value) => (key !== '' && isSecretKey(key) ? REDACTED : value),
});

export const log = {
  info: (msg: string, fields: Fields = {}) => logger.info(msg, fields),
  warn: (msg: string, fields: Fields = {}) => logger.warn(msg, fields),
  error: (msg: string, fields: Fields = {}) => logger.error(msg, fields),
};

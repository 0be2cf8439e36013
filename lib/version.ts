/** The upstream API version this server is compatible with (OpenAPI document 2.154.0). */
export const EXCHANGE_VERSION = '2.154.0';

/** Reported as the schema version in status answers to root and hub admins. */
export const SCHEMA_VERSION = 62;

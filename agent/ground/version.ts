import { BUILD_VERSION } from '#lib/build-version';

/**
 * This agent's version (reported as platform_version and to the Exchange as softwareVersions.horizon):
 * the executable's build (`npm run build:bin -- --version <v>`).
 */
export const AGENT_VERSION = BUILD_VERSION;

/** The oldest Exchange this agent works with, and the one it is built against. */
export const REQUIRED_EXCHANGE_VERSION = '2.124.0';
export const PREFERRED_EXCHANGE_VERSION = '2.154.0';

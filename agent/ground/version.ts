/** This agent's version (reported as platform_version and to the Exchange as softwareVersions.horizon). */
export const AGENT_VERSION = '0.1.0';

/** The oldest Exchange this agent works with, and the one it is built against. */
export const REQUIRED_EXCHANGE_VERSION = '2.124.0';
export const PREFERRED_EXCHANGE_VERSION = '2.154.0';

/** The version `npm run build:bin -- --version <v>` stamps into the executables (esbuild's define). */
declare const HORIZON_AGENT_BUILD_VERSION: string | undefined;

/**
 * The agent's and hzn's version: the build's stamp in the single executable (one build, one
 * version), else the source's default.
 */
export const BUILD_VERSION =
  typeof HORIZON_AGENT_BUILD_VERSION === 'string' ? HORIZON_AGENT_BUILD_VERSION : '0.1.0';

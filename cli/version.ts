/** The CLI's own version (upstream stamps it at build time; `local build` when it is not). */
export const CLI_VERSION = '0.1.0';

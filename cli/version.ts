import { BUILD_VERSION } from '#lib/build-version';

/** The CLI's own version: the executable's build (scripts/device/build-executables.ts), as upstream stamps it. */
export const CLI_VERSION = BUILD_VERSION;

import script from './agent-install.sh?raw';

/**
 * The device installer, `agent-install.sh` beside this file, as text: the Exchange serves it
 * (GET /v1/agent-install.sh) and `npm run build:bin` copies the file into the device kit, so the
 * repository holds one copy. Bundled as text by esbuild's `.sh` loader (serverless.yml's
 * `custom.esbuild`, which every build of the functions uses) and by Vite's `?raw` under vitest.
 */
export const AGENT_INSTALL_SH: string = script;

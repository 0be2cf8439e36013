import { endpoint } from '#functions/endpoint';
import { AGENT_INSTALL_SH } from '#lib/device/agent-install';
import { staticDocument } from '#lib/http/static-document';
import { openApiRoutes } from './routes.ts';

const installer = staticDocument(AGENT_INSTALL_SH, 'text/x-shellscript; charset=utf-8');

/**
 * GET /v1/agent-install.sh (HEAD too): anonymous; the device installer byte for byte, so a device
 * can run `curl -sSf <exchange>/agent-install.sh | sh -s -- -k agent-install.cfg`.
 */
export const handler = endpoint(openApiRoutes.operations.getAgentInstall, {
  handle: ({ event }) => installer(event.headers['if-none-match']),
});

/**
 * Configuring a node that runs a pattern (docs/protocol.md#pattern-nodes): the pattern must exist,
 * and every service of it for this node's arch must exist in the Exchange in each listed version
 * and have all its required user input, from the pattern or the node. Anything missing is the
 * node owner's to fix, so it is a 400 that names it; the node stays `configuring`.
 */
import { archMatches } from '#lib/protocol/arch';
import { patternRecord } from '#lib/protocol/catalog-records';
import { checkUserInput } from '#lib/protocol/user-input-check';
import { badInput } from '../ground/errors.ts';
import { serviceRecord } from '../protocol/exchange-calls.ts';
import type { AgentContext } from '../runtime/context.ts';
import { serviceEvent } from '../services/events.ts';
import { asAgentError } from './exchange-errors.ts';
import { loadUserInput } from './local.ts';
import { credentials, type NodeRecord } from './record.ts';

export async function checkPatternServices(ctx: AgentContext, node: NodeRecord): Promise<void> {
  const who = `${node.organization}/${node.id}`;
  const creds = credentials(node);
  const [org = '', name = ''] = node.pattern.split('/');
  const found = await ctx.exchange.getPattern(creds, org, name).catch((err) => {
    throw asAgentError(err, who);
  });
  if (!found) {
    throw badInput(
      `pattern ${node.pattern} not found in the Exchange: the node cannot be configured.`,
      'pattern',
    );
  }
  const parsed = patternRecord.safeParse(found);
  if (!parsed.success) throw badInput(`pattern ${node.pattern} in the Exchange cannot be read.`, 'pattern');
  const pattern = parsed.data;
  const nodeInput = loadUserInput(ctx.store);
  for (const entry of pattern.services.filter((s) => archMatches(s.serviceArch, ctx.host.arch))) {
    const id = `${entry.serviceOrgid}/${entry.serviceUrl}`;
    const source = { url: entry.serviceUrl, org: entry.serviceOrgid, arch: ctx.host.arch };
    serviceEvent(
      ctx,
      'info',
      'start_service_configuration',
      `Start service auto configuration for ${id}.`,
      source,
    );
    for (const { version } of entry.serviceVersions) {
      const service = { org: entry.serviceOrgid, url: entry.serviceUrl, version, arch: ctx.host.arch };
      const record = await serviceRecord(ctx, creds, service).catch((err) => {
        throw asAgentError(err, who);
      });
      if (!record) {
        throw badInput(
          `service ${id} version ${version} for arch ${ctx.host.arch}, used by pattern ${node.pattern}, is not in the Exchange.`,
          'configstate.state',
        );
      }
      const input = checkUserInput(service, record.userInput, pattern.userInput, nodeInput);
      if (!input.ok) {
        throw badInput(`service ${id} version ${version}: ${input.reason}.`, 'configstate.state');
      }
    }
    serviceEvent(
      ctx,
      'info',
      'service_configuration_complete',
      `Complete service auto configuration for ${id}.`,
      source,
    );
  }
}

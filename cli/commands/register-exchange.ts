import type { Ctx } from '../context.ts';
import { EXIT, fatal } from '../errors.ts';
import { ExchangeClient, enc, orgAndCreds, parseJson } from '../exchange-client.ts';

type Json = Record<string, unknown>;

interface ExchangeNodeStep {
  base: string;
  org: string;
  id: string;
  token: string;
  name: string;
  pattern: string;
  userCreds: string | undefined;
  policy: Json | undefined;
}

/**
 * `hzn register` steps 8–12 (docs/hzn-behaviour.md#hzn-register): the Exchange node exists with the node's token
 * (created with PUT ?noheartbeat=true, or its token PATCHed, with user credentials otherwise), its
 * name is the one asked for, the pattern agrees with the Exchange's, and `--policy` is stored there.
 * Returns the pattern to register with (the Exchange node's when none was given).
 */
export async function prepareExchangeNode(ctx: Ctx, step: ExchangeNodeStep): Promise<string> {
  const { base, org, id, token, name, userCreds, policy } = step;
  let pattern = step.pattern;
  const asNode = new ExchangeClient(ctx, base, `${org}/${id}:${token}`);
  const nodePath = `orgs/${enc(org)}/nodes/${enc(id)}`;
  let exNode = nodeOf(await asNode.call('GET', nodePath), `${org}/${id}`);
  if (exNode) ctx.io.out(`Node ${org}/${id} exists in the Exchange\n`);
  else {
    if (!userCreds)
      throw fatal(
        EXIT.CLI_INPUT_ERROR,
        `node '${org}/${id}' does not exist in the Exchange with the specified token, and the -u flag was not specified to provide exchange user credentials to create/update it.`,
      );
    const asUser = new ExchangeClient(ctx, base, orgAndCreds(org, userCreds, ctx.env));
    exNode = nodeOf(await asUser.call('GET', nodePath), `${org}/${id}`);
    if (!exNode) {
      ctx.io.out(
        `Node ${org}/${id} does not exist in the Exchange with the specified token, creating/updating it...\n`,
      );
      const body = {
        token,
        name,
        nodeType: 'device',
        isNamespaceScoped: false,
        pattern: '',
        registeredServices: null,
        msgEndPoint: '',
        softwareVersions: {},
        publicKey: '',
        arch: '',
        userInput: null,
      };
      const created = await asUser.expect('PUT', `${nodePath}?noheartbeat=true`, [201], body);
      const msg = (parseJson(created.text) as { msg?: string } | undefined)?.msg;
      if (msg) ctx.io.out(`${msg}\n`);
      ctx.io.out(`Node ${id} created.\n`);
    } else {
      ctx.io.out('Updating node token...\n');
      await asUser.expect('PATCH', nodePath, [200, 201], { token });
    }
  }
  if (exNode?.nodeType && exNode.nodeType !== 'device')
    throw fatal(
      EXIT.CLI_INPUT_ERROR,
      `Node type mismatch. The node type '${String(exNode.nodeType)}' does not match the node type 'device' of the Horizon agent.`,
    );
  if (exNode && exNode.name !== name) {
    ctx.io.out('Updating node name...\n');
    await asNode.expect('PATCH', nodePath, [200, 201], { name });
  }
  const exPattern = typeof exNode?.pattern === 'string' ? exNode.pattern : '';
  if (!pattern && exPattern) {
    pattern = exPattern;
    ctx.io.out(`Pattern ${pattern} defined for the node on the Exchange.\n`);
  } else if (pattern && exPattern && exPattern !== pattern && exPattern !== `${org}/${pattern}`)
    throw fatal(
      EXIT.CLI_INPUT_ERROR,
      `The pattern ${pattern} does not match the pattern ${exPattern} of the node on the Exchange.`,
    );
  if (pattern) {
    const [porg, p] = pattern.includes('/') ? (pattern.split('/', 2) as [string, string]) : [org, pattern];
    const found = await asNode.call('GET', `orgs/${enc(porg)}/patterns/${enc(p)}`);
    if (found.status !== 200)
      throw fatal(EXIT.NOT_FOUND, `pattern '${porg}/${p}' not found from the Exchange.`);
    ctx.io.out(`Will proceed with the given pattern ${pattern}.\n`);
  } else if (policy) ctx.io.out('Will proceed with the given node policy.\n');
  else ctx.io.out('No pattern or node policy is specified. Will proceed with the existing node policy.\n');
  if (policy) {
    ctx.io.out('Updating the node policy...\n');
    await asNode.expect('PUT', `${nodePath}/policy`, [201], policy);
  }
  return pattern;
}

function nodeOf(result: { status: number; text: string }, key: string): Json | undefined {
  if (result.status !== 200) return undefined;
  const nodes = (parseJson(result.text) as { nodes?: Record<string, Json> } | undefined)?.nodes;
  return nodes?.[key] ?? Object.values(nodes ?? {})[0];
}

import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

/** stack/shared-role-plugin.cjs on a compiled template as Serverless v3 leaves it (test/stack checks the real one). */
const SharedRoleLeastPrivilege = createRequire(import.meta.url)(
  '../../../stack/shared-role-plugin.cjs',
) as new (
  serverless: unknown,
) => { hooks: Record<string, () => void> };

const statement = (Action: string[]) => ({ Effect: 'Allow', Action, Resource: ['*'] });

function packaged(functions: Record<string, { role?: string; events?: unknown[] }>) {
  const statements = [
    statement(['logs:CreateLogStream', 'logs:CreateLogGroup', 'logs:TagResource']),
    statement(['dynamodb:GetItem', 'dynamodb:Query']),
    statement([
      'dynamodb:GetRecords',
      'dynamodb:GetShardIterator',
      'dynamodb:DescribeStream',
      'dynamodb:ListStreams',
    ]),
    statement(['sqs:ListQueues', 'sqs:SendMessage']),
    statement(['execute-api:ManageConnections']),
  ];
  const serverless = {
    service: {
      functions,
      provider: {
        compiledCloudFormationTemplate: {
          Resources: {
            IamRoleLambdaExecution: {
              Properties: { Policies: [{ PolicyDocument: { Statement: statements } }] },
            },
          },
        },
      },
    },
  };
  const finalize = () => new SharedRoleLeastPrivilege(serverless).hooks['before:package:finalize']?.();
  const { Policies } =
    serverless.service.provider.compiledCloudFormationTemplate.Resources.IamRoleLambdaExecution.Properties;
  const left = () => Policies.flatMap((policy) => policy.PolicyDocument.Statement.flatMap((s) => s.Action));
  return { finalize, left };
}

describe('the shared role plugin', () => {
  it('takes the stream, the queue and the WebSocket connections off the shared role, and keeps the rest', () => {
    const stack = packaged({
      nodes: { events: [{ httpApi: {} }] },
      agbotRound: { role: 'AgbotRoundRole', events: [{ stream: {} }] },
    });
    stack.finalize();
    expect(stack.left()).toEqual([
      'logs:CreateLogStream',
      'logs:CreateLogGroup',
      'logs:TagResource',
      'dynamodb:GetItem',
      'dynamodb:Query',
    ]);
  });

  it('refuses a stack whose function on the shared role reads a stream', () => {
    const stack = packaged({ reader: { events: [{ stream: {} }] } });
    expect(stack.finalize).toThrow(
      'stack/shared-role-plugin.cjs: reader on the shared role read a stream; give them a role of their own',
    );
  });
});

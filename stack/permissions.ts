/**
 * What each of the Exchange's functions may do on AWS (docs/operations.md, "Who may do what"), as
 * IAM roles serverless.yml lists: the HTTP API's functions share the framework's role
 * (`IamRoleLambdaExecution`, statements in serverless.yml) with the table's item operations and
 * nothing else; the three that need more get a role of their own here. The agbot's round and the
 * signal dispatcher have theirs in serverless.yml (their own partitions, the stream).
 *
 * A statement lists only the actions the functions' code calls (a TransactWriteItems needs the
 * action of each of its parts): no Scan but for POST /admin/dropdb, no KMS but for the secrets and
 * the built-in agbot's sealed token, no S3 but for the object store.
 */

type Json = Record<string, unknown>;

/** The table's item operations the Exchange's code calls (tables/, through @aws-sdk/lib-dynamodb). */
export const TABLE_ACTIONS = [
  'dynamodb:GetItem',
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:ConditionCheckItem',
  'dynamodb:Query',
  'dynamodb:BatchGetItem',
  'dynamodb:BatchWriteItem',
];

const tableArn = { 'Fn::GetAtt': ['ExchangeTable', 'Arn'] };

/** The table's items, and Query on its indexes (the only call made on them). */
export const tableStatements = (): Json[] => [
  { Effect: 'Allow', Action: TABLE_ACTIONS, Resource: [tableArn] },
  {
    Effect: 'Allow',
    Action: ['dynamodb:Query'],
    Resource: [{ 'Fn::Join': ['/', [tableArn, 'index', '*']] }],
  },
];

/** What a role adds to the table's items, and why (the runbook's table says the same). */
const EXTRA = {
  scan: {
    Effect: 'Allow',
    Action: ['dynamodb:Scan'],
    Resource: [tableArn],
  },
  kms: {
    Effect: 'Allow',
    Action: ['kms:GenerateDataKey', 'kms:Decrypt'],
    Resource: [{ 'Fn::GetAtt': ['SecretsKey', 'Arn'] }],
  },
  s3: {
    Effect: 'Allow',
    Action: ['s3:GetObject', 's3:PutObject', 's3:DeleteObject'],
    Resource: [{ 'Fn::Join': ['', [{ 'Fn::GetAtt': ['ObjectsBucket', 'Arn'] }, '/objects/*']] }],
  },
} as const;

/**
 * The functions with a role of their own, by the role's logical id: the function (its key under
 * serverless.yml's `functions:`) and what it needs beyond the table's items.
 */
export const OWN_ROLES = {
  // POST /admin/dropdb deletes every item (tables/admin/drop-all.ts: a Scan, the one in the
  // Exchange); POST /admin/initdb seals the built-in agbot's token with the secrets key.
  ExchangeAdminRole: { function: 'admin', extra: ['scan', 'kms'] },
  // The secrets manager's envelope encryption (lib/secrets/kms-key-provider.ts).
  ExchangeSecretsRole: { function: 'secrets', extra: ['kms'] },
  // The object store: presigned URLs are signed with the role's own credentials
  // (functions/objects/shared/s3-presign.ts), so it may read, write and delete there.
  ExchangeObjectsRole: { function: 'objects', extra: ['s3'] },
} as const satisfies Record<string, { function: string; extra: readonly (keyof typeof EXTRA)[] }>;

export type OwnRole = keyof typeof OWN_ROLES;

/** A role of `OWN_ROLES`: its function's log group, the table's items, and its extras. */
export function ownRole(id: OwnRole, service: string, stage: string): Json {
  const { function: name, extra } = OWN_ROLES[id];
  return {
    Type: 'AWS::IAM::Role',
    Properties: {
      AssumeRolePolicyDocument: {
        Version: '2012-10-17',
        Statement: [
          { Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' }, Action: 'sts:AssumeRole' },
        ],
      },
      Policies: [
        {
          PolicyName: `${service}-${stage}-${name}`,
          PolicyDocument: {
            Version: '2012-10-17',
            Statement: [
              {
                Effect: 'Allow',
                Action: ['logs:CreateLogStream', 'logs:PutLogEvents'],
                Resource: [
                  {
                    'Fn::Join': [
                      '',
                      [
                        'arn:',
                        { Ref: 'AWS::Partition' },
                        ':logs:',
                        { Ref: 'AWS::Region' },
                        ':',
                        { Ref: 'AWS::AccountId' },
                        `:log-group:/aws/lambda/${service}-${stage}-${name}:*`,
                      ],
                    ],
                  },
                ],
              },
              ...tableStatements(),
              ...extra.map((key) => EXTRA[key]),
            ],
          },
        },
      ],
    },
  };
}

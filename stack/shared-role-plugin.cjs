// A local serverless plugin (serverless.yml `plugins`) that takes off the shared role
// (`IamRoleLambdaExecution`) what Serverless v3 adds to it whatever the functions need
// (docs/operations.md, "Who may do what"):
// - every stream event's reads and every stream failure destination, even for functions with a
//   role of their own: no function on the shared role reads the stream or sends to a queue (the
//   agbot's round and the signal dispatcher have their own roles, which hold both);
// - for a WebSocket event, `execute-api:ManageConnections` on every WebSocket API of every account
//   (`arn:…:execute-api:*:*:*/@connections/*`): the channel's function answers its routes by its
//   return value, and only the signal dispatcher posts to or closes a connection, with its own
//   role, on this stack's API and stage only.
// It runs after the events are compiled, and refuses to when a function on the shared role has a
// stream event (it would then need those reads).
const dropped = (action) =>
  /^dynamodb:(GetRecords|GetShardIterator|DescribeStream|ListStreams)$|^sqs:|^execute-api:ManageConnections$/.test(
    action,
  );

class SharedRoleLeastPrivilege {
  constructor(serverless) {
    this.hooks = {
      'before:package:finalize': () => {
        const template = serverless.service.provider.compiledCloudFormationTemplate;
        const role = template.Resources.IamRoleLambdaExecution;
        if (!role) return;
        const onSharedRole = Object.entries(serverless.service.functions).filter(([, fn]) => !fn.role);
        const streaming = onSharedRole.filter(([, fn]) => (fn.events ?? []).some((event) => event.stream));
        if (streaming.length > 0)
          throw new Error(
            `stack/shared-role-plugin.cjs: ${streaming.map(([name]) => name).join(', ')} on the shared role read a stream; give them a role of their own`,
          );
        for (const policy of role.Properties.Policies)
          policy.PolicyDocument.Statement = policy.PolicyDocument.Statement.filter(
            (statement) => ![].concat(statement.Action).some(dropped),
          );
      },
    };
  }
}

module.exports = SharedRoleLeastPrivilege;

// Hands tables/table-definition.json (the one definition of the table, also read by the local
// launcher) to serverless.yml, adding the stage-specific name and what only AWS has: point-in-time
// recovery and deletion protection, both stage parameters that default to on (serverless.yml
// `params`, docs/operations.md "Stage parameters").
const definition = require('./table-definition.json');

/** A parameter given on the command line (`--param="pointInTimeRecovery=false"`) arrives as text. */
const flag = (value) => value === true || value === 'true';

module.exports.properties = async ({ resolveVariable }) => ({
  TableName: await resolveVariable('self:custom.tableName'),
  ...definition,
  PointInTimeRecoverySpecification: {
    PointInTimeRecoveryEnabled: flag(await resolveVariable('param:pointInTimeRecovery')),
  },
  DeletionProtectionEnabled: flag(await resolveVariable('param:deletionProtection')),
});

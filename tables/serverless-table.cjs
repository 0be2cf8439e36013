// Hands tables/table-definition.json (the one definition of the table, also read by the local
// launcher) to serverless.yml, adding the stage-specific name and what only AWS has: point-in-time
// recovery and deletion protection, both stage parameters that default to on (serverless.yml
// `params`, docs/operations.md "Stage parameters").
const definition = require('./table-definition.json');

/** A parameter given on the command line (`--param="pointInTimeRecovery=false"`) arrives as text. */
function flag(name, value) {
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  throw new Error(`Stage parameter ${name} must be true or false, not ${JSON.stringify(value)}`);
}

module.exports.properties = async ({ resolveVariable }) => ({
  TableName: await resolveVariable('self:custom.tableName'),
  ...definition,
  PointInTimeRecoverySpecification: {
    PointInTimeRecoveryEnabled: flag(
      'pointInTimeRecovery',
      await resolveVariable('param:pointInTimeRecovery'),
    ),
  },
  DeletionProtectionEnabled: flag('deletionProtection', await resolveVariable('param:deletionProtection')),
});

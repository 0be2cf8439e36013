// Hands tables/table-definition.json (the one definition of the table, also read by the local
// launcher) to serverless.yml, adding the stage-specific name.
const definition = require('./table-definition.json');

module.exports.properties = ({ resolveVariable }) =>
  resolveVariable('self:custom.tableName').then((TableName) => ({ TableName, ...definition }));

// Hands serverless.yml the roles of the functions that need more than the table's items
// (stack/permissions.ts, OWN_ROLES), one export per logical id, and names each function's role.
const { loadTs } = require('./load-ts.cjs');

const IDS = ['ExchangeAdminRole', 'ExchangeSecretsRole', 'ExchangeObjectsRole'];

for (const id of IDS)
  module.exports[id] = async ({ resolveVariable }) => {
    const { ownRole, OWN_ROLES } = await loadTs('permissions.ts');
    if (Object.keys(OWN_ROLES).sort().join() !== [...IDS].sort().join())
      throw new Error(
        `stack/permissions.ts has the roles ${Object.keys(OWN_ROLES)}; stack/serverless-roles.cjs lists ${IDS}`,
      );
    return ownRole(id, await resolveVariable('self:service'), await resolveVariable('sls:stage'));
  };

/** Gives each function of OWN_ROLES its role (serverless.yml's `functions:`). */
module.exports.assignRoles = async (functions) => {
  const { OWN_ROLES } = await loadTs('permissions.ts');
  for (const [id, { function: name }] of Object.entries(OWN_ROLES)) {
    if (!functions[name]) throw new Error(`stack/permissions.ts: no function ${name} for ${id}`);
    functions[name].role = id;
  }
};

/** The shared role's statements (serverless.yml `provider.iam.role.statements`). */
module.exports.sharedStatements = async () => (await loadTs('permissions.ts')).tableStatements();

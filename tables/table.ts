import { Table } from 'dynamodb-toolbox';
import { documentClient, tableName } from './client.ts';

/**
 * The single table (definition: `table-definition.json`, shared with serverless.yml and the local
 * launcher). Generic keys; `gsi1` lists entities by org; `gsi2` holds the agbots' node searches
 * (tables/node/search.ts); `ttl` holds epoch seconds for expiry.
 */
export const ExchangeTable = new Table({
  documentClient,
  name: tableName,
  partitionKey: { name: 'pk', type: 'string' },
  sortKey: { name: 'sk', type: 'string' },
  indexes: {
    gsi1: {
      type: 'global',
      partitionKey: { name: 'gsi1pk', type: 'string' },
      sortKey: { name: 'gsi1sk', type: 'string' },
    },
    gsi2: {
      type: 'global',
      partitionKey: { name: 'gsi2pk', type: 'string' },
      sortKey: { name: 'gsi2sk', type: 'string' },
    },
  },
});

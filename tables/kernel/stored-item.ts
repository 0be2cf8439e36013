import type { Entity, FormattedItem } from 'dynamodb-toolbox';

type Attributes = Record<string, { props: Record<string, unknown>; type?: string; attributes?: Attributes }>;

/** Names of the visible top-level attributes; refuses a schema that renames or transforms anything. */
function storedAsIs(entityName: string, attributes: Attributes, path = ''): string[] {
  const visible: string[] = [];
  for (const [name, attribute] of Object.entries(attributes)) {
    const { hidden, savedAs, transform } = attribute.props;
    if (hidden) continue;
    if (savedAs !== undefined || transform !== undefined) {
      throw new Error(`${entityName}: ${path}${name} is renamed or transformed; read it through the entity`);
    }
    if (attribute.type === 'map' && attribute.attributes)
      storedAsIs(entityName, attribute.attributes, `${path}${name}.`);
    visible.push(name);
  }
  return visible;
}

/**
 * Turns a raw item back into the entity's record by picking its visible attributes, for the
 * hottest reads (GET node on every node request). dynamodb-toolbox's formatter re-validates every
 * attribute and compiles a RegExp per attribute on each read, about a twentieth of a GET node's
 * CPU (docs/benchmarks.md); the item was validated by the same schema when it was written, since
 * every write goes through the entity. Only for entities whose visible attributes are stored under
 * their own names, untransformed (checked here, once); test/integration/nodes/stored-node-read.test.ts
 * holds the result equal to the formatter's.
 */
export function storedItemReader<E extends Entity>(
  entity: E,
): (raw: Record<string, unknown>) => FormattedItem<E> {
  const visible = storedAsIs(entity.entityName, entity.schema.attributes as unknown as Attributes);
  return (raw) => {
    const item: Record<string, unknown> = {};
    for (const name of visible) if (raw[name] !== undefined) item[name] = raw[name];
    return item as FormattedItem<E>;
  };
}

import { isPlainObject } from "./json-path";

/**
 * A copy of `value` with object keys in the order the schema declares them (unknown keys after,
 * as they were). PostgreSQL's jsonb stores keys by length, which would put `instructions` last;
 * the JSON view reads better in the contract's order. Values are untouched.
 */
export function orderLikeSchema(value: unknown, schema: unknown): unknown {
  if (Array.isArray(value)) {
    const items = isPlainObject(schema) ? schema.items : undefined;
    return value.map((item) => orderLikeSchema(item, branchFor(item, items)));
  }
  if (!isPlainObject(value)) return value;
  const node = branchFor(value, schema);
  const properties = isPlainObject(node) && isPlainObject(node.properties) ? node.properties : {};
  const declared = Object.keys(properties).filter((key) => Object.hasOwn(value, key));
  const rest = Object.keys(value).filter((key) => !Object.hasOwn(properties, key));
  const out: Record<string, unknown> = {};
  for (const key of [...declared, ...rest]) out[key] = orderLikeSchema(value[key], properties[key]);
  return out;
}

/** The union branch that describes `value`: the one whose `type` const matches, else the first object branch. */
function branchFor(value: unknown, schema: unknown): unknown {
  if (!isPlainObject(schema)) return undefined;
  const branches = [schema.oneOf, schema.anyOf].find(Array.isArray) as unknown[] | undefined;
  if (!branches) return schema;
  const objects = branches.filter(
    (b): b is Record<string, unknown> => isPlainObject(b) && (b.type === "object" || isPlainObject(b.properties)),
  );
  const type = isPlainObject(value) ? value.type : undefined;
  const tagged = objects.find(
    (b) => isPlainObject(b.properties) && isPlainObject(b.properties.type) && b.properties.type.const === type,
  );
  if (Array.isArray(value)) return branches.find((b) => isPlainObject(b) && b.type === "array");
  return tagged ?? (isPlainObject(value) ? objects[0] : undefined);
}

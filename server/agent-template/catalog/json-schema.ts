/** A JSON Schema document or fragment, as served by the catalog. */
export type JsonSchema = Record<string, unknown>;

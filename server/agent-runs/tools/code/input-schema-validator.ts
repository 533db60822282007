import Ajv, { type ValidateFunction } from "ajv";
import { contentHash } from "@/server/core/stable-json";
import { compileLinearPattern } from "@/server/core/linear-pattern";

/** Compiled schemas kept per process; the least recently used one goes first. */
const CACHE_SIZE = 256;

// ajv calls the engine as `new RegExp(source, flags)` would be called; RE2 keeps `pattern` linear.
const linearRegExp = Object.assign((source: string, flags: string) => compileLinearPattern(source, flags), {
  code: "linearRegExp",
});

const cache = new Map<string, ValidateFunction>();

/**
 * The validator of one code tool's `input_schema`. Each schema is compiled by its own ajv
 * instance, so an `$id` is registered nowhere else and a `$ref` resolves only inside the schema
 * itself, never to a schema another run (or project) compiled; compiled validators are cached by
 * project and schema content, and the cache is bounded. Throws when the schema does not compile.
 */
export function inputSchemaValidator(projectId: string, schema: object): ValidateFunction {
  const key = `${projectId}:${contentHash(schema)}`;
  const cached = cache.get(key);
  if (cached) {
    cache.delete(key);
    cache.set(key, cached);
    return cached;
  }
  const validate = new Ajv({ strict: false, allErrors: true, code: { regExp: linearRegExp } }).compile(schema);
  cache.set(key, validate);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  return validate;
}

/** The errors of a failed validation, as one line. */
export function describeSchemaErrors(validate: ValidateFunction): string {
  return (validate.errors ?? []).map((e) => `${e.instancePath || "(root)"} ${e.message ?? "is invalid"}`).join("; ");
}

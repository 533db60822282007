import { jsonDepthWithin } from "@/server/core/json-depth";
/**
 * Attribute normalisation (the reference implementation's rules, server/tracing/README.md): dotted
 * keys become nested objects, the `ag` namespace keeps only the keys it knows (the rest moves to
 * `ag.unsupported`), legacy metric names are renamed, and JSON strings in inputs, parameters and
 * internals are parsed.
 */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: unknown };

export function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** `{"a.b": 1, "a": {"c": 2}}` becomes `{"a": {"b": 1, "c": 2}}`; nested objects are unmarshalled too. */
export function unmarshal(input: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [key, raw] of Object.entries(input)) {
    const value = isObject(raw) ? unmarshal(raw) : raw;
    const parts = key.split(".").filter((p) => p !== "");
    if (parts.length === 0) continue;
    let node = out;
    for (const part of parts.slice(0, -1)) {
      const next = node[part];
      if (!isObject(next)) node[part] = next === undefined ? {} : { "": next };
      node = node[part] as JsonObject;
    }
    const last = parts[parts.length - 1];
    const existing = node[last];
    if (isObject(existing) && isObject(value)) node[last] = mergeDeep(existing, value);
    else if (isObject(existing)) existing[""] = value;
    else node[last] = value;
  }
  return out;
}

export function mergeDeep(a: JsonObject, b: JsonObject): JsonObject {
  const out: JsonObject = { ...a };
  for (const [k, v] of Object.entries(b)) {
    out[k] = isObject(out[k]) && isObject(v) ? mergeDeep(out[k] as JsonObject, v) : v;
  }
  return out;
}

export function getPath(obj: unknown, path: string[]): unknown {
  let node = obj;
  for (const part of path) {
    if (!isObject(node)) return undefined;
    node = node[part];
  }
  return node;
}

export function setPath(obj: JsonObject, path: string[], value: unknown): void {
  let node = obj;
  for (const part of path.slice(0, -1)) {
    if (!isObject(node[part])) node[part] = {};
    node = node[part] as JsonObject;
  }
  node[path[path.length - 1]] = value;
}

const AG_KEYS: Record<string, readonly string[] | true> = {
  type: ["trace", "span"],
  data: ["parameters", "inputs", "outputs", "internals"],
  metrics: ["duration", "errors", "tokens", "costs"],
  references: true,
  session: ["id"],
  user: ["id"],
  flags: true,
  tags: true,
  meta: true,
  exception: true,
  selector: true,
  // A simple trace's named links to entities (`{"testcase": {"id"}}`), which have no span to point at.
  links: true,
};

/**
 * Older Agenta SDKs write a span's type as `ag.type.node`; the reference's OTLP adapter reads it as
 * `ag.type.span` (a `span` also sent wins), so those spans are typed, not left as `task`.
 */
function renameLegacyType(ag: JsonObject): JsonObject {
  if (!isObject(ag.type) || ag.type.node === undefined) return ag;
  const { node, ...type } = ag.type;
  return { ...ag, type: { span: node, ...type } };
}

const URL_SAFE_SLUG = /^[A-Za-z0-9._~-]+$/;
const METRIC_RENAMES: Record<string, string> = { acc: "cumulative", unit: "incremental" };

/** Cleans the `ag` subtree in place; returns the (possibly new) attributes object. */
export function cleanAgNamespace(attributes: JsonObject): JsonObject {
  const ag = attributes.ag;
  if (ag === undefined) return attributes;
  if (!isObject(ag)) {
    attributes.ag = { unsupported: { "": ag } };
    return attributes;
  }
  const clean: JsonObject = {};
  const unsupported: JsonObject = isObject(ag.unsupported) ? { ...ag.unsupported } : {};
  for (const [key, value] of Object.entries(renameLegacyType(ag))) {
    if (key === "unsupported") continue;
    const allowed = AG_KEYS[key];
    if (allowed === undefined) {
      unsupported[key] = value;
      continue;
    }
    if (allowed === true || !isObject(value)) {
      clean[key] = value;
      continue;
    }
    const kept: JsonObject = {};
    for (const [sub, subValue] of Object.entries(value)) {
      if (allowed.includes(sub)) kept[sub] = subValue;
      else setPath(unsupported, [key, sub], subValue);
    }
    clean[key] = kept;
  }
  if (isObject(clean.data)) {
    for (const field of ["inputs", "parameters", "internals"]) parseJsonStringField(clean.data, field);
  }
  if (isObject(clean.metrics)) clean.metrics = renameLegacyMetrics(clean.metrics);
  if (isObject(clean.references)) clean.references = cleanReferences(clean.references, unsupported);
  if (Object.keys(unsupported).length > 0) clean.unsupported = unsupported;
  attributes.ag = clean;
  return attributes;
}

function parseJsonStringField(data: JsonObject, field: string): void {
  const value = data[field];
  if (typeof value !== "string") return;
  const trimmed = value.trim();
  if (!trimmed.startsWith("{") && !trimmed.startsWith("[")) return;
  try {
    const parsed: unknown = JSON.parse(trimmed);
    // Too deep to walk safely: kept as the string it was.
    if (isObject(parsed) && jsonDepthWithin(parsed)) data[field] = parsed;
  } catch {
    // Not JSON after all: kept as the string it was.
  }
}

function renameLegacyMetrics(metrics: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [name, value] of Object.entries(metrics)) {
    if (!isObject(value)) {
      out[name] = value;
      continue;
    }
    const renamed: JsonObject = {};
    for (const [k, v] of Object.entries(value)) renamed[METRIC_RENAMES[k] ?? k] = v;
    out[name] = renamed;
  }
  return out;
}

function cleanReferences(references: JsonObject, unsupported: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(references)) {
    if (!isObject(value)) {
      setPath(unsupported, ["references", key], value);
      continue;
    }
    const ref: JsonObject = {};
    if (value.id !== undefined) ref.id = value.id;
    if (value.slug !== undefined)
      ref.slug = typeof value.slug === "string" && URL_SAFE_SLUG.test(value.slug) ? value.slug : null;
    if (value.version !== undefined) ref.version = value.version === null ? null : String(value.version);
    out[key] = ref;
  }
  return out;
}

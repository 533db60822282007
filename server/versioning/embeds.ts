import { BadRequestError, NotFoundError, isAppError } from "@/server/core/errors";
import type { Executor } from "@/server/db";
import { domainKeys, domainOfSingular, type DomainName } from "./domains";
import { refSchema, type RetrieveRefs } from "./references";
import { resolveRevision } from "./resolve-revision";
import { revisionReferences } from "./revision-events";

export const EMBED_KEY = "@svc.embed";
const REFERENCES_KEY = "@svc.references";
const SELECTOR_KEY = "@svc.selector";
export const MAX_EMBED_DEPTH = 10;
export const MAX_EMBEDS = 100;

export interface EmbedUse {
  /** Where in the resolved document the embed stood, e.g. `parameters.agent.tools[0]`. */
  path: string;
  references: Record<string, unknown>;
  selector?: { path: string };
  depth: number;
}

export interface ResolvedData {
  data: Record<string, unknown>;
  embeds: EmbedUse[];
}

export function isEmbed(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && EMBED_KEY in value;
}

/**
 * Replaces every `{"@svc.embed": ...}` object with the referenced revision's data at the selector
 * path, recursively. `originRevisionId` seeds cycle detection when the data is itself a revision's.
 */
export async function resolveEmbeds(
  db: Executor,
  projectId: string,
  data: Record<string, unknown>,
  originRevisionId?: string,
): Promise<ResolvedData> {
  const embeds: EmbedUse[] = [];
  const walk = async (value: unknown, path: string, chain: string[], depth: number): Promise<unknown> => {
    if (Array.isArray(value)) {
      const out = [];
      for (let i = 0; i < value.length; i++) out.push(await walk(value[i], `${path}[${i}]`, chain, depth));
      return out;
    }
    if (typeof value !== "object" || value === null) return value;
    if (!isEmbed(value)) {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) out[k] = await walk(v, path ? `${path}.${k}` : k, chain, depth);
      return out;
    }
    const embed = parseEmbed(value, path);
    if (embeds.length >= MAX_EMBEDS) {
      throw new BadRequestError(`Too many embeds: more than ${MAX_EMBEDS} (the one at ${path || "the root"} references ${embed.label})`, "embed_limit");
    }
    if (depth >= MAX_EMBED_DEPTH) {
      throw new BadRequestError(`Embeds nest deeper than ${MAX_EMBED_DEPTH} levels at ${path || "the root"} (references ${embed.label})`, "embed_depth");
    }
    const { revision } = await resolveRevision(db, projectId, domainKeys(embed.domain), embed.refs).catch((error) => {
      if (isAppError(error) && error.status === 404) throw new NotFoundError(`Embed at ${path || "the root"} references ${embed.label}, which does not exist: ${error.message}`, "embed_not_found");
      throw error;
    });
    if (chain.includes(revision.id)) {
      throw new BadRequestError(`Embed cycle at ${path || "the root"}: ${embed.label} embeds itself through its own references`, "embed_cycle");
    }
    const selected = embed.selector ? select(revision.data ?? {}, embed.selector.path) : revision.data;
    if (selected === undefined) {
      throw new NotFoundError(`Embed at ${path || "the root"} references ${embed.label}, which has no value at "${embed.selector!.path}"`, "embed_not_found");
    }
    embeds.push({ path, references: revisionReferences(domainKeys(embed.domain), revision), selector: embed.selector, depth: depth + 1 });
    return walk(selected, path, [...chain, revision.id], depth + 1);
  };
  const resolved = (await walk(data, "", originRevisionId ? [originRevisionId] : [], 0)) as Record<string, unknown>;
  return { data: resolved, embeds };
}

interface ParsedEmbed {
  domain: DomainName;
  refs: RetrieveRefs;
  selector?: { path: string };
  label: string;
}

function parseEmbed(value: Record<string, unknown>, path: string): ParsedEmbed {
  const where = path || "the root";
  const body = value[EMBED_KEY];
  if (typeof body !== "object" || body === null) throw new BadRequestError(`Embed at ${where}: ${EMBED_KEY} must be an object`, "invalid_embed");
  const references = (body as Record<string, unknown>)[REFERENCES_KEY];
  const selector = (body as Record<string, unknown>)[SELECTOR_KEY];
  if (typeof references !== "object" || references === null) {
    throw new BadRequestError(`Embed at ${where}: ${REFERENCES_KEY} must be an object such as {"workflow": {"slug": "..."}}`, "invalid_embed");
  }
  if (selector !== undefined && (typeof selector !== "object" || selector === null || typeof (selector as { path?: unknown }).path !== "string")) {
    throw new BadRequestError(`Embed at ${where}: ${SELECTOR_KEY} must be {"path": "parameters.<name>"}`, "invalid_embed");
  }
  const refs: RetrieveRefs = {};
  let domain: DomainName | undefined;
  for (const [rawKey, raw] of Object.entries(references)) {
    const key = rawKey.replace(/_ref$/, "");
    if (key === "key") {
      refs.key = String(raw);
      continue;
    }
    const parsed = refSchema.safeParse(raw);
    if (!parsed.success) throw new BadRequestError(`Embed at ${where}: ${REFERENCES_KEY}.${rawKey} is not a reference`, "invalid_embed");
    const [one, part = "artifact"] = key.split(/_(variant|revision)$/);
    if (one === "environment") {
      refs[part === "artifact" ? "environment" : part === "variant" ? "environmentVariant" : "environmentRevision"] = parsed.data;
      continue;
    }
    const d = domainOfSingular(one);
    if (!d) throw new BadRequestError(`Embed at ${where}: unknown reference key ${rawKey}`, "invalid_embed");
    if (domain && d !== domain) throw new BadRequestError(`Embed at ${where}: references mix ${domain} and ${d}`, "invalid_embed");
    domain = d;
    refs[part === "artifact" ? "artifact" : part === "variant" ? "variant" : "revision"] = parsed.data;
  }
  const resolvedDomain = domain ?? "workflows";
  return { domain: resolvedDomain, refs, selector: selector as { path: string } | undefined, label: labelOf(resolvedDomain, refs) };
}

function labelOf(domain: DomainName, refs: RetrieveRefs): string {
  const one = domainKeys(domain).one;
  const ref = refs.revision ?? refs.variant ?? refs.artifact ?? refs.environment;
  const name = ref?.slug ? `"${ref.slug}"` : ref?.id ?? "";
  return `${one} ${name}${ref?.version ? ` version ${ref.version}` : ""}`.trim();
}

/** Dotted path (`parameters.tools`, `rows.0.x`); undefined when any step is missing. */
function select(data: unknown, path: string): unknown {
  let current: unknown = data;
  for (const step of path.split(".").filter(Boolean)) {
    // Own keys only: `constructor` or `__proto__` are not data.
    if (typeof current !== "object" || current === null || !Object.hasOwn(current, step)) return undefined;
    current = (current as Record<string, unknown>)[step];
  }
  return current;
}

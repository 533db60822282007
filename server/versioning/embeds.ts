import { BadRequestError, NotFoundError, isAppError, type AppError } from "@/server/core/errors";
import type { Executor } from "@/server/db";
import { domainKeys } from "./domains";
import { findStringEmbeds, isEmbed, parseObjectEmbed, parseStringEmbed, type ParsedEmbed } from "./embed-syntax";
import type { RevisionRecord } from "./records";
import { resolveRevisionBySlugAndVersion } from "./resolve-slug-version";
import { revisionReferences } from "./revision-events";

export { EMBED_KEY, isEmbed } from "./embed-syntax";
export const MAX_EMBED_DEPTH = 10;
export const MAX_EMBEDS = 100;

/** `exception`: the first failing embed fails the request; `placeholder`: it becomes `"<error:code>"`; `keep`: it stays as written. */
export type EmbedErrorPolicy = "exception" | "placeholder" | "keep";

export interface EmbedOptions {
  maxDepth?: number;
  maxEmbeds?: number;
  errorPolicy?: EmbedErrorPolicy;
}

export interface EmbedUse {
  /** Where in the resolved document the embed stood, e.g. `parameters.agent.tools[0]`. */
  path: string;
  references: Record<string, unknown>;
  selector?: { path: string };
  depth: number;
}

/** An embed that failed under the `placeholder` or `keep` policy. */
export interface EmbedError {
  path: string;
  code: string;
  detail: string;
}

export interface ResolvedData {
  data: Record<string, unknown>;
  embeds: EmbedUse[];
  errors: EmbedError[];
}

/**
 * Replaces every embed, object form (`{"@svc.embed": ...}`, the whole object) or string form
 * (`@svc.embed[...]` inside a string, the token), with the referenced revision's data at the
 * selector path, recursively. `originRevisionId` seeds cycle detection when the data is itself a
 * revision's. Cycle, depth, count and malformed embeds are 400, a missing target or path 404.
 */
export async function resolveEmbeds(
  db: Executor,
  projectId: string,
  data: Record<string, unknown>,
  originRevisionId?: string,
  options: EmbedOptions = {},
): Promise<ResolvedData> {
  const maxDepth = options.maxDepth ?? MAX_EMBED_DEPTH;
  const maxEmbeds = options.maxEmbeds ?? MAX_EMBEDS;
  const policy = options.errorPolicy ?? "exception";
  const embeds: EmbedUse[] = [];
  const errors: EmbedError[] = [];

  /** One embed's replacement, or (under a lenient policy) what stands in for it. */
  const replace = async (parse: () => ParsedEmbed, original: unknown, path: string, chain: string[], depth: number) => {
    try {
      const embed = parse();
      const { revision, selected } = await target(embed, path, chain, depth);
      embeds.push({
        path,
        references: revisionReferences(domainKeys(embed.domain), revision),
        selector: embed.selector,
        depth: depth + 1,
      });
      return await walk(selected, path, [...chain, revision.id], depth + 1);
    } catch (error) {
      if (policy === "exception" || !isAppError(error) || error.status >= 500) throw error;
      errors.push({ path, code: (error as AppError).code, detail: error.message });
      return policy === "placeholder" ? `<error:${(error as AppError).code}>` : original;
    }
  };

  const target = async (embed: ParsedEmbed, path: string, chain: string[], depth: number) => {
    const where = path || "the root";
    if (embeds.length >= maxEmbeds)
      throw new BadRequestError(
        `Too many embeds: more than ${maxEmbeds} (the one at ${where} references ${embed.label})`,
        "embed_limit",
      );
    if (depth >= maxDepth)
      throw new BadRequestError(
        `Embeds nest deeper than ${maxDepth} levels at ${where} (references ${embed.label})`,
        "embed_depth",
      );
    const revision = await findTarget(db, projectId, embed, where);
    if (chain.includes(revision.id))
      throw new BadRequestError(
        `Embed cycle at ${where}: ${embed.label} embeds itself through its own references`,
        "embed_cycle",
      );
    const selected = embed.selector ? select(revision.data ?? {}, embed.selector.path) : revision.data;
    if (selected === undefined)
      throw new NotFoundError(
        `Embed at ${where} references ${embed.label}, which has no value at "${embed.selector!.path}"`,
        "embed_not_found",
      );
    return { revision, selected };
  };

  const walk = async (value: unknown, path: string, chain: string[], depth: number): Promise<unknown> => {
    if (typeof value === "string") return walkString(value, path, chain, depth);
    if (Array.isArray(value)) {
      const out = [];
      for (let i = 0; i < value.length; i++) out.push(await walk(value[i], `${path}[${i}]`, chain, depth));
      return out;
    }
    if (typeof value !== "object" || value === null) return value;
    if (isEmbed(value)) return replace(() => parseObjectEmbed(value, path || "the root"), value, path, chain, depth);
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = await walk(v, path ? `${path}.${k}` : k, chain, depth);
    return out;
  };

  /** Each token is replaced by the selected value: text as is, anything else as JSON. */
  const walkString = async (value: string, path: string, chain: string[], depth: number): Promise<string> => {
    const tokens = findStringEmbeds(value);
    if (tokens.length === 0) return value;
    let out = "";
    let from = 0;
    for (const token of tokens) {
      const resolved = await replace(
        () => parseStringEmbed(token.text, path || "the root"),
        token.text,
        path,
        chain,
        depth,
      );
      out += value.slice(from, token.start) + (typeof resolved === "string" ? resolved : JSON.stringify(resolved));
      from = token.end;
    }
    return out + value.slice(from);
  };

  const resolved = (await walk(data, "", originRevisionId ? [originRevisionId] : [], 0)) as Record<string, unknown>;
  return { data: resolved, embeds, errors };
}

/**
 * The embedded revision. A revision reference carrying a slug and a version that names no
 * revision is read, as the compat API does, as an artifact slug and that version of its default
 * variant (`workflow_revision.slug=my-tool, version=2`).
 */
async function findTarget(db: Executor, projectId: string, embed: ParsedEmbed, where: string): Promise<RevisionRecord> {
  const keys = domainKeys(embed.domain);
  const notFound = (error: unknown) => {
    if (isAppError(error) && error.status === 404)
      throw new NotFoundError(
        `Embed at ${where} references ${embed.label}, which does not exist: ${error.message}`,
        "embed_not_found",
      );
    throw error;
  };
  return (await resolveRevisionBySlugAndVersion(db, projectId, keys, embed.refs).catch(notFound)).revision;
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

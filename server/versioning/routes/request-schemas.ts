import { z } from "zod";
import { slugSchema } from "@/server/core/slugs";
import { windowingSchema } from "@/server/core/windowing";
import type { DomainKeys } from "../domains";
import { refSchema, type RetrieveRefs } from "../references";

const record = z.record(z.string(), z.unknown());
const text = (max: number) => z.string().trim().min(1).max(max);
const refList = z.array(refSchema).max(1000);

const flags = z.record(z.string(), z.boolean());

/** The header every artifact, variant and revision carries (compat clients send absent ones as null). */
const artifactFields = {
  name: text(256).optional(),
  description: z.string().max(10_000).nullish(),
  flags: flags.optional(),
  tags: record.optional(),
  meta: record.optional(),
};

const entityFilter = z.strictObject({
  ids: z.array(z.string().uuid()).max(1000).optional(),
  slug: z.string().optional(),
  slugs: z.array(z.string()).max(1000).optional(),
  name: z.string().max(256).optional().describe("Case-insensitive substring of the name"),
  description: z.string().max(1000).optional().describe("Case-insensitive substring of the description"),
  flags: flags
    .optional()
    .describe("Matches when the flags contain these (role flags such as is_application count as set)"),
  tags: record.optional().describe("Matches when the tags contain these key/value pairs"),
  meta: record.optional().describe("Matches when the meta contains these key/value pairs"),
});

/** An edit: the header fields, and the id when the client repeats it (it must equal the path's). */
const editOf = <F extends z.ZodRawShape>(fields: F) => z.strictObject({ id: z.string().uuid().optional(), ...fields });

const listOptions = {
  include_archived: z.boolean().optional(),
  windowing: windowingSchema.optional(),
};

/** How `/resolve` (and retrieve with `resolve`) treats embeds: limits, and what a failing embed becomes. */
const resolveOptions = {
  max_depth: z.number().int().min(1).max(100).optional(),
  max_embeds: z.number().int().min(1).max(10_000).optional(),
  error_policy: z.enum(["exception", "placeholder", "keep"]).optional(),
};

export const deltaSchema = z.strictObject({
  set: z.record(z.string().min(1), record).optional(),
  remove: z.array(z.string().min(1)).optional(),
  splits: z
    .record(z.string().min(1), z.array(record).max(4).nullable())
    .optional()
    .describe("Environments: a key's weighted revisions (an array sets the split, null ends it)"),
});

// Key names are computed per domain, so bodies are typed as plain records and read by key.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- per-domain key names: values are read by key, not by a static type
type Body = z.ZodType<Record<string, any>>;

/** Request bodies of one domain, with that domain's key names (`application_ref`, ...). */
export function requestSchemas(
  keys: DomainKeys,
  options: { acceptsDelta: boolean; retrieveOptions?: z.ZodRawShape },
): Record<
  | "create"
  | "update"
  | "query"
  | "variantCreate"
  | "variantUpdate"
  | "variantQuery"
  | "fork"
  | "commit"
  | "revisionCreate"
  | "revisionUpdate"
  | "retrieve"
  | "resolve"
  | "log"
  | "revisionQuery"
  | "deploy"
  | "simpleEdit",
  Body
> {
  // Compat clients send absent references as null.
  const refShape = {
    [keys.ref]: refSchema.nullish(),
    [keys.variantRef]: refSchema.nullish(),
    [keys.revisionRef]: refSchema.nullish(),
    environment_ref: refSchema.nullish(),
    environment_variant_ref: refSchema.nullish(),
    environment_revision_ref: refSchema.nullish(),
    key: z.string().min(1).max(300).nullish(),
  };

  const commitWrapper = z
    .strictObject({
      [keys.variantId]: z.string().uuid().nullish(),
      [keys.artifactId]: z.string().uuid().nullish(),
      revision_id: z
        .string()
        .uuid()
        .nullish()
        .describe("The revision this commit starts from: names the variant when no variant id is given"),
      slug: slugSchema.nullish(),
      message: z.string().max(10_000).nullish(),
      name: text(256).nullish(),
      description: z.string().max(10_000).nullish(),
      flags: flags.nullish(),
      tags: record.nullish(),
      meta: record.nullish(),
      data: record.nullish(),
      ...(options.acceptsDelta ? { delta: deltaSchema.nullish() } : {}),
    })
    .refine((c: Record<string, unknown>) => c[keys.variantId] || c[keys.artifactId] || c.revision_id, {
      message: `give ${keys.variantId} (or ${keys.artifactId} for its default variant, or the revision_id it starts from)`,
      path: [keys.variantId],
    });

  return {
    create: z.strictObject({
      [keys.one]: z
        .strictObject({
          slug: slugSchema.optional(),
          ...artifactFields,
          // The compat API's legacy role flags, beside `flags` (see role-flags.ts).
          is_application: z.boolean().optional(),
          is_evaluator: z.boolean().optional(),
          data: record.optional(),
          message: z.string().max(10_000).optional(),
          ...(options.acceptsDelta ? { delta: deltaSchema.optional() } : {}),
        })
        .refine((a) => a.slug || a.name, { message: "give a name or a slug", path: ["name"] }),
    }),
    // Compat clients send the whole entity back, slug included (it must be the current one).
    update: z.strictObject({ [keys.one]: editOf({ slug: slugSchema.optional(), ...artifactFields }) }),
    variantUpdate: z.strictObject({ [keys.variant]: editOf(artifactFields) }),
    revisionUpdate: z.strictObject({ [keys.revision]: editOf(artifactFields) }),
    query: z.strictObject({
      [keys.one]: entityFilter.optional(),
      [keys.refs]: refList.optional(),
      ...listOptions,
    }),
    variantCreate: z.strictObject({
      [keys.variant]: z.strictObject({
        [keys.artifactId]: z.string().uuid(),
        slug: slugSchema.optional(),
        ...artifactFields,
      }),
    }),
    variantQuery: z.strictObject({
      [keys.variant]: entityFilter.extend({ [keys.artifactId]: z.string().uuid().optional() }).optional(),
      [keys.refs]: refList.optional(),
      [keys.variantRefs]: refList.optional(),
      ...listOptions,
    }),
    fork: z.strictObject({
      ...refShape,
      [keys.variant]: z.strictObject({ slug: slugSchema.optional(), ...artifactFields }).optional(),
    }),
    // Compat clients send `<domain>_revision` as the wrapper.
    commit: z
      .strictObject({ [keys.commit]: commitWrapper.optional(), [keys.revision]: commitWrapper.optional() })
      .refine((b: Record<string, unknown>) => Boolean(b[keys.commit]) !== Boolean(b[keys.revision]), {
        message: `send the commit in exactly one of ${keys.commit} or ${keys.revision}`,
        path: [keys.commit],
      }),
    // The compat API's create form: the same fields as a commit, under `<domain>_revision`.
    revisionCreate: z.strictObject({ [keys.revision]: commitWrapper }),
    retrieve: z.strictObject({
      ...refShape,
      resolve: z.boolean().optional(),
      ...resolveOptions,
      ...options.retrieveOptions,
    }),
    resolve: z.strictObject({
      ...refShape,
      [keys.revision]: z.strictObject({ data: record }).optional(),
      ...resolveOptions,
    }),
    log: z.strictObject({
      [keys.one]: z
        .strictObject({ [keys.variantId]: z.string().uuid().nullish(), [keys.artifactId]: z.string().uuid().nullish() })
        .optional(),
      [keys.revisions]: z
        .strictObject({
          [keys.variantId]: z.string().uuid().nullish(),
          [keys.artifactId]: z.string().uuid().nullish(),
          [keys.revisionId]: z.string().uuid().nullish(),
          depth: z.number().int().min(0).max(10_000).nullish(),
        })
        .optional(),
      depth: z.number().int().min(0).max(10_000).optional(),
    }),
    revisionQuery: z.strictObject({
      [keys.revision]: entityFilter
        .extend({
          message: z.string().max(1000).optional(),
          author_ids: z.array(z.string().uuid()).max(1000).optional(),
          // The compat API's names for the same filter.
          author: z.string().uuid().optional(),
          authors: z.array(z.string().uuid()).max(1000).optional(),
          [keys.artifactId]: z.string().uuid().optional(),
          [keys.variantId]: z.string().uuid().optional(),
        })
        .optional(),
      [keys.refs]: refList.optional(),
      [keys.variantRefs]: refList.optional(),
      [keys.revisionRefs]: refList.optional(),
      ...listOptions,
    }),
    simpleEdit: z.strictObject({
      [keys.one]: editOf({
        slug: slugSchema.optional(),
        ...artifactFields,
        data: record.optional(),
        message: z.string().max(10_000).optional(),
      }),
    }),
    deploy: z.strictObject({
      [keys.ref]: refSchema.nullish(),
      [keys.variantRef]: refSchema.nullish(),
      [keys.revisionRef]: refSchema.nullish(),
      environment_ref: refSchema.nullish(),
      environment_variant_ref: refSchema.nullish(),
      environment_revision_ref: refSchema.nullish(),
      key: z.string().min(1).max(300).nullish(),
      message: z.string().max(10_000).nullish(),
    }),
  };
}

/** Reads the domain-keyed references of a parsed body. */
export function refsOf(keys: DomainKeys, body: Record<string, unknown>): RetrieveRefs {
  const get = (k: string) => (body[k] ?? undefined) as RetrieveRefs["artifact"];
  return {
    artifact: get(keys.ref),
    variant: get(keys.variantRef),
    revision: get(keys.revisionRef),
    environment: get("environment_ref"),
    environmentVariant: get("environment_variant_ref"),
    environmentRevision: get("environment_revision_ref"),
    key: (body.key ?? undefined) as string | undefined,
  };
}

export function filterOf(raw: Record<string, unknown> | undefined) {
  if (!raw) return undefined;
  const slugs = [...((raw.slugs as string[] | undefined) ?? []), ...(raw.slug ? [raw.slug as string] : [])];
  return {
    ids: raw.ids as string[] | undefined,
    slugs: slugs.length ? slugs : undefined,
    name: raw.name as string | undefined,
    description: raw.description as string | undefined,
    flags: raw.flags as Record<string, boolean> | undefined,
    tags: raw.tags as Record<string, unknown> | undefined,
    meta: raw.meta as Record<string, unknown> | undefined,
  };
}

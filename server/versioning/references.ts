import { z } from "zod";

/** Identifies an artifact, variant or revision; null fields count as absent (compat clients send them). */
export interface Ref {
  id?: string;
  slug?: string;
  version?: string;
}

export const refSchema: z.ZodType<Ref, unknown> = z
  .object({
    id: z.string().uuid().nullish(),
    slug: z.string().min(1).max(256).nullish(),
    version: z
      .union([z.string(), z.number().int()])
      .transform(String)
      .pipe(
        z
          .string()
          .regex(/^(0|[1-9][0-9]{0,9})$/, 'version is a whole number such as "3" (0: an empty initial revision)'),
      )
      .nullish(),
  })
  .transform((r) => {
    const ref: Ref = {};
    if (r.id) ref.id = r.id;
    if (r.slug) ref.slug = r.slug;
    if (r.version) ref.version = r.version;
    return ref;
  });

export function hasIdentity(ref: Ref | undefined): boolean {
  return Boolean(ref && (ref.id || ref.slug));
}

export function isEmptyRef(ref: Ref | undefined): boolean {
  return !ref || (!ref.id && !ref.slug && !ref.version);
}

/** The references a retrieve, resolve, deploy or fork request may combine. */
export interface RetrieveRefs {
  artifact?: Ref;
  variant?: Ref;
  revision?: Ref;
  environment?: Ref;
  environmentVariant?: Ref;
  environmentRevision?: Ref;
  key?: string;
}

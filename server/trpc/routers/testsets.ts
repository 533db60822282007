import { z } from "zod";
import { appendTestcases, DOMAIN_SPECS, listTestsets, MAX_TESTCASES_PER_REVISION } from "@/server/domains";
import {
  commitRevision,
  createArtifact,
  fetchRevision,
  getArtifact,
  Lookup,
  logRevisions,
  restoreRevision,
  setArtifactArchived,
  updateArtifact,
} from "@/server/versioning";
import { artifactToWire, revisionToWire, variantToWire } from "@/server/versioning";
import { createTRPCRouter, memberProcedure, projectProcedure } from "../init";
import { scopeOf } from "./scope";

const spec = DOMAIN_SPECS.testsets;
const keys = spec.keys;
const id = z.string().uuid();
const revisionWire = (r: Parameters<typeof revisionToWire>[1]) => revisionToWire(keys, r);
/** A row is an object of columns; the versioning engine checks the rest (server/domains/testsets/spec.ts). */
const rows = z.array(z.record(z.string(), z.unknown())).max(MAX_TESTCASES_PER_REVISION);
const message = z.string().max(10_000).optional();
/** The editor's column order: a row's keys lose their order in JSONB, an array keeps it. */
const columns = z.array(z.string().min(1).max(200)).max(1_000).optional();
const tableData = (input: { testcases: Record<string, unknown>[]; columns?: string[] }) => ({
  testcases: input.testcases,
  ...(input.columns ? { columns: input.columns } : {}),
});
const HISTORY_DEPTH = 500;

/** Testsets are versioned artifacts whose revisions hold `data.testcases`; every save is a commit. */
export const testsetsRouter = createTRPCRouter({
  list: projectProcedure
    .input(
      z.strictObject({
        search: z.string().max(200).optional(),
        includeArchived: z.boolean().default(false),
        cursor: id.optional(),
        limit: z.number().int().min(1).max(200).default(50),
        direction: z.enum(["forward", "backward"]).optional(),
      }),
    )
    .query(async ({ ctx, input }) => {
      const page = await listTestsets(ctx.app.db, scopeOf(ctx), {
        search: input.search || undefined,
        includeArchived: input.includeArchived,
        windowing: { limit: input.limit, next: input.cursor },
      });
      return {
        next: page.next,
        items: page.items.map((t) => ({
          testset: artifactToWire(t.artifact),
          defaultVariantId: t.defaultVariantId,
          latest: t.latest && { ...t.latest, version: String(t.latest.version), date: t.latest.date.toISOString() },
        })),
      };
    }),

  /** Revision 1 holds the given rows (none for an empty testset, to be filled in the editor). */
  create: memberProcedure
    .input(z.strictObject({ name: z.string().trim().min(1).max(256), testcases: rows.default([]), columns, message }))
    .mutation(async ({ ctx, input }) => {
      const created = await createArtifact(ctx.app.db, scopeOf(ctx), spec, {
        name: input.name,
        data: tableData(input),
        message: input.message,
      });
      return {
        testset: artifactToWire(created.artifact),
        variant: variantToWire(keys, created.variant!),
        revision: revisionWire(created.commit!.revision),
      };
    }),

  /** The testset, its default variant and that variant's head with its rows. */
  get: projectProcedure.input(z.strictObject({ id })).query(async ({ ctx, input }) => {
    const scope = scopeOf(ctx);
    const artifact = await getArtifact(ctx.app.db, scope, spec, input.id);
    const lookup = new Lookup(ctx.app.db, scope.projectId, keys);
    const variant = await lookup.defaultVariantIfAny(artifact);
    const head = variant ? await lookup.latestOfArtifact({ id: artifact.id }) : undefined;
    return {
      testset: artifactToWire(artifact),
      variant: variant && variantToWire(keys, variant),
      revision: head && revisionWire(head),
    };
  }),

  revision: projectProcedure
    .input(z.strictObject({ id }))
    .query(async ({ ctx, input }) => revisionWire(await fetchRevision(ctx.app.db, scopeOf(ctx), spec, input.id))),

  /** Commit metadata, newest first, without rows (a revision of 10,000 rows is fetched on its own). */
  history: projectProcedure.input(z.strictObject({ variantId: id })).query(async ({ ctx, input }) => {
    const items = await logRevisions(ctx.app.db, scopeOf(ctx), spec, {
      variantId: input.variantId,
      depth: HISTORY_DEPTH,
    });
    return { items: items.map(revisionWire) };
  }),

  commit: memberProcedure
    .input(z.strictObject({ variantId: id, testcases: rows, columns, message }))
    .mutation(async ({ ctx, input }) => {
      const { revision } = await commitRevision(ctx.app.db, scopeOf(ctx), spec, {
        variantId: input.variantId,
        data: tableData(input),
        message: input.message,
      });
      return revisionWire(revision);
    }),

  /** Rows taken from traffic (a trace, a chat turn), added after the testset's current rows. */
  append: memberProcedure
    .input(z.strictObject({ testsetId: id, testcases: rows.min(1), message }))
    .mutation(async ({ ctx, input }) => {
      const { revision } = await appendTestcases(ctx.app.db, scopeOf(ctx), input);
      return revisionWire(revision);
    }),

  restore: memberProcedure.input(z.strictObject({ revisionId: id })).mutation(async ({ ctx, input }) => {
    const { revision } = await restoreRevision(ctx.app.db, scopeOf(ctx), spec, input.revisionId);
    return revisionWire(revision);
  }),

  rename: memberProcedure
    .input(z.strictObject({ id, name: z.string().trim().min(1).max(256) }))
    .mutation(async ({ ctx, input }) =>
      artifactToWire(await updateArtifact(ctx.app.db, scopeOf(ctx), spec, input.id, { name: input.name })),
    ),

  setArchived: memberProcedure
    .input(z.strictObject({ id, archived: z.boolean() }))
    .mutation(async ({ ctx, input }) =>
      artifactToWire(await setArtifactArchived(ctx.app.db, scopeOf(ctx), spec, input.id, input.archived)),
    ),
});

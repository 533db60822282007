import { z } from "zod";
import { findProjectMembers } from "@/server/auth";
import { slugSchema } from "@/server/core/slugs";
import { deployRevision } from "@/server/domains";
import { DOMAIN_SPECS } from "@/server/domains";
import { commitAgentTemplate, createAgent, forkAgentVariant, listAgents, precheckCommit } from "@/server/domains";
import {
  fetchRevision,
  getArtifact,
  queryRevisions,
  queryVariants,
  restoreRevision,
  setArtifactArchived,
  updateArtifact,
} from "@/server/versioning";
import { artifactToWire, revisionToWire, variantToWire } from "@/server/versioning";
import { runnableModels, startingModel } from "@/server/agent-runs";
import { createTRPCRouter, memberProcedure, projectProcedure } from "../init";
import { scopeOf } from "./scope";

const spec = DOMAIN_SPECS.workflows;
const keys = spec.keys;
const id = z.string().uuid();
// `direction` is what TanStack's infinite queries add to a cursor input; our cursors only go forward.
const page = {
  cursor: id.optional(),
  limit: z.number().int().min(1).max(200).default(50),
  direction: z.enum(["forward", "backward"]).optional(),
};
const revisionWire = (r: Parameters<typeof revisionToWire>[1]) => revisionToWire(keys, r);

/** Agents are workflows carrying `data.parameters.agent`; every procedure calls the versioning engine. */
export const agentsRouter = createTRPCRouter({
  list: projectProcedure
    .input(
      z.strictObject({ search: z.string().max(200).optional(), includeArchived: z.boolean().default(false), ...page }),
    )
    .query(async ({ ctx, input }) => {
      const result = await listAgents(ctx.app.db, scopeOf(ctx), {
        search: input.search || undefined,
        includeArchived: input.includeArchived,
        windowing: { limit: input.limit, next: input.cursor },
      });
      return {
        next: result.next,
        items: result.items.map((a) => ({
          agent: artifactToWire(a.artifact),
          defaultVariantId: a.defaultVariantId,
          latest: a.latest
            ? { ...a.latest, version: String(a.latest.version), date: a.latest.date.toISOString() }
            : undefined,
          deployments: a.deployments,
        })),
      };
    }),

  create: memberProcedure
    .input(z.strictObject({ name: z.string().trim().min(1).max(256), slug: slugSchema.optional() }))
    .mutation(async ({ ctx, input }) => {
      // Started on a model the project can run, so the first chat works with only a local model.
      const llm = startingModel(await runnableModels(ctx.app, ctx.principal.projectId));
      const created = await createAgent(ctx.app.db, scopeOf(ctx), { ...input, llm });
      return {
        agent: artifactToWire(created.artifact),
        variant: variantToWire(keys, created.variant),
        revision: revisionWire(created.commit!.revision),
      };
    }),

  get: projectProcedure.input(z.strictObject({ id })).query(async ({ ctx, input }) => {
    const scope = scopeOf(ctx);
    const artifact = await getArtifact(ctx.app.db, scope, spec, input.id);
    const variants = await queryVariants(ctx.app.db, scope, spec, {
      artifactRefs: [{ id: artifact.id }],
      includeArchived: true,
      windowing: { order: "ascending", limit: 1000 },
    });
    return { agent: artifactToWire(artifact), variants: variants.items.map((v) => variantToWire(keys, v)) };
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

  /** A variant's history, newest first, with payloads (the editor diffs them). */
  history: projectProcedure.input(z.strictObject({ variantId: id, ...page })).query(async ({ ctx, input }) => {
    const result = await queryRevisions(ctx.app.db, scopeOf(ctx), spec, {
      variantRefs: [{ id: input.variantId }],
      includeArchived: true,
      windowing: { limit: input.limit, next: input.cursor },
    });
    return { next: result.next, items: result.items.map(revisionWire) };
  }),

  revision: projectProcedure
    .input(z.strictObject({ id }))
    .query(async ({ ctx, input }) => revisionWire(await fetchRevision(ctx.app.db, scopeOf(ctx), spec, input.id))),

  /** The server's verdict without committing: the same check a commit runs. */
  validate: projectProcedure
    .input(z.strictObject({ template: z.unknown() }))
    .mutation(({ ctx, input }) => precheckCommit(ctx.app.db, ctx.principal.projectId, input.template)),

  commit: memberProcedure
    .input(z.strictObject({ variantId: id, template: z.unknown(), message: z.string().max(10_000).optional() }))
    .mutation(async ({ ctx, input }) => {
      const { revision, warnings } = await commitAgentTemplate(ctx.app.db, scopeOf(ctx), input);
      return { revision: revisionWire(revision), warnings };
    }),

  restore: memberProcedure.input(z.strictObject({ revisionId: id })).mutation(async ({ ctx, input }) => {
    const { revision } = await restoreRevision(ctx.app.db, scopeOf(ctx), spec, input.revisionId);
    return revisionWire(revision);
  }),

  fork: memberProcedure
    .input(
      z.strictObject({
        revisionId: id,
        slug: slugSchema.optional(),
        name: z.string().trim().min(1).max(256).optional(),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const fork = await forkAgentVariant(ctx.app.db, scopeOf(ctx), input);
      return { variant: variantToWire(keys, fork.variant), revision: revisionWire(fork.commit.revision) };
    }),

  deploy: memberProcedure
    .input(
      z.strictObject({ revisionId: id, environment: z.string().min(1), message: z.string().max(10_000).optional() }),
    )
    .mutation(async ({ ctx, input }) => {
      const result = await deployRevision(ctx.app.db, scopeOf(ctx), keys, {
        source: { revision: { id: input.revisionId } },
        environment: { slug: input.environment },
        message: input.message,
      });
      return { environmentRevision: revisionToWire(DOMAIN_SPECS.environments.keys, result.environmentRevision) };
    }),

  /** Names of the people behind revisions and deploys (members of this project only). */
  authors: projectProcedure.input(z.strictObject({ ids: z.array(id).max(200) })).query(async ({ ctx, input }) => {
    return findProjectMembers(ctx.app.db, ctx.principal.projectId, [...new Set(input.ids)]);
  }),
});

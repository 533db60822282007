import { z } from "zod";
import {
  artifactsWithRevisions,
  DOMAIN_SPECS,
  EVALUATOR_PRESETS,
  EVALUATOR_TEMPLATES,
  evaluatorPresetToWire,
  evaluatorTemplateToWire,
} from "@/server/domains";
import { tryEvaluator } from "@/server/evaluations";
import {
  artifactToWire,
  commitRevision,
  createArtifact,
  getArtifact,
  queryRevisions,
  revisionToWire,
  updateArtifact,
} from "@/server/versioning";
import { createTRPCRouter, memberProcedure, projectProcedure } from "../init";
import { scopeOf } from "./scope";

const spec = DOMAIN_SPECS.evaluators;
const id = z.string().uuid();
const data = z.record(z.string(), z.unknown());
const revisionWire = (r: Parameters<typeof revisionToWire>[1]) => revisionToWire(spec.keys, r);

/** Evaluators are versioned artifacts whose revision `data` is `{uri, parameters}`; the catalog gives the forms. */
export const evaluatorsRouter = createTRPCRouter({
  templates: projectProcedure.query(() => EVALUATOR_TEMPLATES.map(evaluatorTemplateToWire)),
  presets: projectProcedure.query(() => EVALUATOR_PRESETS.map(evaluatorPresetToWire)),

  /** Every evaluator with its newest revisions (the run dialog picks one). */
  list: projectProcedure.query(async ({ ctx }) =>
    (await artifactsWithRevisions(ctx.app.db, scopeOf(ctx), spec, { perArtifact: 5 })).map((e) => ({
      evaluator: artifactToWire(e.artifact),
      revisions: e.revisions.map(revisionWire),
    })),
  ),

  get: projectProcedure.input(z.strictObject({ id })).query(async ({ ctx, input }) => {
    const scope = scopeOf(ctx);
    const artifact = await getArtifact(ctx.app.db, scope, spec, input.id);
    const history = await queryRevisions(ctx.app.db, scope, spec, {
      artifactRefs: [{ id: artifact.id }],
      windowing: { limit: 100 },
    });
    return { evaluator: artifactToWire(artifact), revisions: history.items.map(revisionWire) };
  }),

  rename: memberProcedure
    .input(z.strictObject({ id, name: z.string().trim().min(1).max(256) }))
    .mutation(async ({ ctx, input }) =>
      artifactToWire(await updateArtifact(ctx.app.db, scopeOf(ctx), spec, input.id, { name: input.name })),
    ),

  create: memberProcedure
    .input(
      z.strictObject({
        name: z.string().trim().min(1).max(256),
        description: z.string().max(2000).optional(),
        data,
        message: z.string().max(10_000).optional(),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const created = await createArtifact(ctx.app.db, scopeOf(ctx), spec, input);
      return { evaluator: artifactToWire(created.artifact), revision: revisionWire(created.commit!.revision) };
    }),

  commit: memberProcedure
    .input(z.strictObject({ variantId: id, data, message: z.string().max(10_000).optional() }))
    .mutation(async ({ ctx, input }) =>
      revisionWire((await commitRevision(ctx.app.db, scopeOf(ctx), spec, input)).revision),
    ),

  /** Runs the evaluator once on a sample (it may call a judge model: members only); nothing is stored. */
  try: memberProcedure
    .input(z.strictObject({ data, inputs: data, outputs: z.unknown() }))
    .mutation(({ ctx, input }) => tryEvaluator(ctx.app, ctx.principal.projectId, input)),
});

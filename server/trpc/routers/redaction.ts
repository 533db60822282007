import { z } from "zod";
import { getRedactionSettings, Redactor, redactionSettingsInput, setRedactionSettings } from "@/server/redaction";
import { createTRPCRouter, ownerProcedure, projectProcedure } from "../init";

/** Settings' redaction section: the project's rules, and the "try it" box (stores nothing). */
export const redactionRouter = createTRPCRouter({
  settings: projectProcedure.query(({ ctx }) => getRedactionSettings(ctx.app.db, ctx.principal.projectId)),
  /** Owners replace the rules (audited), as PUT /api/redaction/settings does. */
  save: ownerProcedure
    .input(redactionSettingsInput)
    .mutation(({ ctx, input }) => setRedactionSettings(ctx.app.db, ctx.principal.projectId, input)),
  tryIt: projectProcedure
    .input(z.strictObject({ text: z.string().max(100_000), settings: redactionSettingsInput.optional() }))
    .mutation(async ({ ctx, input }) => {
      const settings = input.settings ?? (await getRedactionSettings(ctx.app.db, ctx.principal.projectId));
      return { redacted: new Redactor(settings).text(input.text) };
    }),
});

import { z } from "zod";
import { getRedactionSettings, Redactor, redactionSettingsInput } from "@/server/redaction";
import { createTRPCRouter, projectProcedure } from "../init";

/** Settings' redaction section: the project's rules, and the "try it" box (stores nothing). */
export const redactionRouter = createTRPCRouter({
  settings: projectProcedure.query(({ ctx }) => getRedactionSettings(ctx.app.db, ctx.principal.projectId)),
  tryIt: projectProcedure
    .input(z.strictObject({ text: z.string().max(100_000), settings: redactionSettingsInput.optional() }))
    .mutation(async ({ ctx, input }) => {
      const settings = input.settings ?? (await getRedactionSettings(ctx.app.db, ctx.principal.projectId));
      return { redacted: new Redactor(settings).text(input.text) };
    }),
});

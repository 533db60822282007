import { z } from "zod";
import { agentTemplateJsonSchema, defaultAgentTemplate, getHarness, listHarnesses } from "@/server/agent-template";
import { NotFoundError } from "@/server/core/errors";
import { createTRPCRouter, sessionProcedure } from "../init";

/** The editor validates live against the same JSON Schema the REST catalog serves. */
export const catalogRouter = createTRPCRouter({
  agentTemplateSchema: sessionProcedure.query(() => agentTemplateJsonSchema()),
  defaultTemplate: sessionProcedure.query(() => defaultAgentTemplate()),
  harnesses: sessionProcedure.query(({ ctx }) =>
    listHarnesses({ externalHarness: ctx.app.config.externalHarness.enabled }),
  ),
  harness: sessionProcedure.input(z.strictObject({ kind: z.string() })).query(({ ctx, input }) => {
    const harness = getHarness(input.kind, { externalHarness: ctx.app.config.externalHarness.enabled });
    if (!harness) throw new NotFoundError(`Unknown harness "${input.kind}"`);
    return harness;
  }),
});

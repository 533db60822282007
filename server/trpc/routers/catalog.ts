import { z } from "zod";
import { agentTemplateJsonSchema, defaultAgentTemplate, getHarness, listHarnesses } from "@/server/agents";
import { NotFoundError } from "@/server/core/errors";
import { createTRPCRouter, publicProcedure } from "../init";

/** The editor validates live against the same JSON Schema the REST catalog serves. */
export const catalogRouter = createTRPCRouter({
  agentTemplateSchema: publicProcedure.query(() => agentTemplateJsonSchema()),
  defaultTemplate: publicProcedure.query(() => defaultAgentTemplate()),
  harnesses: publicProcedure.query(() => listHarnesses()),
  harness: publicProcedure.input(z.strictObject({ kind: z.string() })).query(({ input }) => {
    const harness = getHarness(input.kind);
    if (!harness) throw new NotFoundError(`Unknown harness "${input.kind}"`);
    return harness;
  }),
});

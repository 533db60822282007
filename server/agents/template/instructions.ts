import { closedObject } from "./closed-object";
import { DEFAULT_AGENTS_MD } from "./builtin-defaults";
import { z } from "zod";

export const instructionsSchema = closedObject({
  agents_md: z
    .string()
    .default(DEFAULT_AGENTS_MD)
    .describe("The system prompt; the harness receives it as AGENTS.md."),
}).describe("Instruction documents.");

import { z } from "zod";
import { DEFAULT_AGENTS_MD } from "./builtin-defaults";
import { closedObject } from "./closed-object";

export const instructionsSchema = closedObject({
  agents_md: z.string().default(DEFAULT_AGENTS_MD).describe("The system prompt; the harness receives it as AGENTS.md."),
}).describe("Instruction documents.");

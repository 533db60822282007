import { z } from "zod";
import { doorFields } from "./chat-request";
import { responsesToolSchema, toolChoiceSchema } from "./request-tools";
import { responsesInputSchema } from "./responses-input";
import { refuseUnsupported, unsupportedFields } from "./unsupported-parameters";

/** Body of `POST /v1/responses`. Unknown fields are refused (422), as OpenAI refuses them. */
export const responsesRequestSchema = z
  .strictObject({
    model: z.string().min(1).max(300),
    input: responsesInputSchema,
    instructions: z
      .string()
      .nullish()
      .describe("A system message before this call's input; not carried to the next response (as OpenAI does)."),
    previous_response_id: z.string().min(1).max(200).nullish(),
    stream: z.boolean().nullish(),
    tools: z.array(responsesToolSchema).max(128).nullish(),
    tool_choice: toolChoiceSchema.nullish(),
    parallel_tool_calls: z.boolean().nullish(),
    include: z.array(z.string()).max(0, "include: no extra output data is served; remove include").nullish(),
    store: z
      .boolean()
      .nullish()
      .describe("false: this response is not kept, so no later call can continue it with previous_response_id."),
    ...doorFields,
    ...unsupportedFields,
  })
  .superRefine(refuseUnsupported);

export type ResponsesRequest = z.output<typeof responsesRequestSchema>;

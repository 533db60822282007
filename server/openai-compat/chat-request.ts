import { z } from "zod";
import { chatMessageSchema } from "./chat-messages";
import { variablesSchema } from "./prompt-application";
import { chatToolSchema, toolChoiceSchema } from "./request-tools";
import { refuseUnsupported, unsupportedFields } from "./unsupported-parameters";

/** What the door adds to OpenAI's bodies (the SDKs pass them with `extra_body` / `providerOptions`). */
export const doorFields = {
  unattended: z
    .enum(["deny", "fail"])
    .nullish()
    .describe(
      "A call the runner policy would ask a person about: `deny` (default) refuses it and tells the model; `fail` ends the run.",
    ),
  session_id: z
    .string()
    .regex(/^[A-Za-z0-9._:-]{1,128}$/, "session_id is 1 to 128 of A-Z a-z 0-9 . _ : -")
    .nullish()
    .describe("The agent session (sandbox workspace, approvals); a new one per call when absent."),
  variables: variablesSchema,
  user: z
    .string()
    .max(256)
    .nullish()
    .describe(
      "Not recorded; through a split environment (`agent@environment`), the sticky key when there is no session_id.",
    ),
  metadata: z
    .record(z.string(), z.string())
    .nullish()
    .describe(
      "Not recorded; through a split environment (`agent@environment`), the sticky key when there is no session_id.",
    ),
};

/** Body of `POST /v1/chat/completions`. Unknown fields are refused (422), as OpenAI refuses them. */
export const chatCompletionRequestSchema = z
  .strictObject({
    model: z.string().min(1).max(300),
    messages: z.array(chatMessageSchema).min(1).max(10_000),
    stream: z.boolean().nullish(),
    stream_options: z.object({ include_usage: z.boolean().nullish() }).nullish(),
    tools: z.array(chatToolSchema).max(128).nullish(),
    tool_choice: toolChoiceSchema.nullish(),
    parallel_tool_calls: z.boolean().nullish(),
    store: z
      .literal(false, { error: "store: chat completions are not stored here (the run's trace is); remove store" })
      .nullish(),
    ...doorFields,
    ...unsupportedFields,
  })
  .superRefine(refuseUnsupported);

export type ChatCompletionRequest = z.output<typeof chatCompletionRequestSchema>;

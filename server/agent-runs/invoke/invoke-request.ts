import { z } from "zod";
import { refSchema } from "@/server/versioning";

export const SESSION_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Body of `POST /services/agent/v0/invoke`. */
export const invokeRequestSchema = z.object({
  session_id: z.string().regex(SESSION_ID, "session_id is 1 to 128 of A-Z a-z 0-9 . _ : -").nullish(),
  references: z
    .strictObject({
      workflow: refSchema.nullish(),
      workflow_variant: refSchema.nullish(),
      workflow_revision: refSchema.nullish(),
      environment: refSchema.nullish(),
      environment_variant: refSchema.nullish(),
      environment_revision: refSchema.nullish(),
      key: z.string().min(1).max(300).nullish(),
    })
    .nullish()
    .describe("The workflow revision to run, as retrieve resolves it; used when data.parameters is absent."),
  flags: z
    .object({
      stream: z.boolean().nullish(),
      trim: z.boolean().nullish().describe("Batch keeps only the trailing unit of the turn."),
      resolve: z.boolean().nullish(),
      unattended: z
        .enum(["deny", "fail"])
        .nullish()
        .describe(
          "No one can approve: `deny` refuses a call that would ask (the model is told); `fail` ends the run with stop reason permission_required.",
        ),
      background: z
        .boolean()
        .nullish()
        .describe(
          "Answer 202 with the run id at once; the run goes on without a client (follow it by its id, or by webhooks on agents.runs.*).",
        ),
      cancel_on_disconnect: z
        .boolean()
        .nullish()
        .describe(
          "The old behaviour: the client going away cancels the run. By default the run goes on and can be resumed; cancel it with POST /services/agent/v0/runs/{id}/cancel.",
        ),
    })
    .nullish(),
  data: z
    .object({
      inputs: z.object({ messages: z.array(z.unknown()).max(10_000).default([]) }).nullish(),
      parameters: z.object({ agent: z.unknown() }).nullish(),
    })
    .nullish(),
});

export type InvokeRequest = z.output<typeof invokeRequestSchema>;

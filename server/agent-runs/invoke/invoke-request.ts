import { z } from "zod";
import { AppError, BadRequestError } from "@/server/core/errors";
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
      force: z.boolean().nullish().describe("Not supported: true answers 406."),
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

export const SESSION_ID_HEADER = "x-svc-session-id";
export const TRANSCRIPT_HEADER = "x-svc-messages-transcript";
export const SESSION_CONTROL_HEADER = "x-svc-session-control";

/**
 * The body with what the request headers say filled in where the body is silent (the body wins):
 * a session id, `flags.trim` from the transcript header (`last` or `full`) and `flags.force` from
 * the session-control header. Forcing a session is not supported: it is refused, never ignored.
 */
export function withRequestHeaders(body: InvokeRequest, headers: Headers): InvokeRequest {
  const flags = { ...body.flags };
  const transcript = headers.get(TRANSCRIPT_HEADER);
  if (transcript !== null && (flags.trim === null || flags.trim === undefined)) {
    if (transcript !== "last" && transcript !== "full")
      throw new BadRequestError(`${TRANSCRIPT_HEADER} is "last" or "full", not "${transcript}"`);
    flags.trim = transcript === "last";
  }
  const control = headers.get(SESSION_CONTROL_HEADER);
  if (control !== null && (flags.force === null || flags.force === undefined)) {
    if (control !== "force")
      throw new BadRequestError(`${SESSION_CONTROL_HEADER} is "force" or absent, not "${control}"`);
    flags.force = true;
  }
  if (flags.force) throw new AppError(406, "force_not_supported", "flags.force is not supported yet");
  const session = headers.get(SESSION_ID_HEADER);
  if (body.session_id || session === null) return { ...body, flags };
  if (!SESSION_ID.test(session)) throw new BadRequestError(`${SESSION_ID_HEADER} is 1 to 128 of A-Z a-z 0-9 . _ : -`);
  return { ...body, session_id: session, flags };
}

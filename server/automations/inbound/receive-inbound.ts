import { eq } from "drizzle-orm";
import type { AppContext } from "@/server/core/app-context";
import { BadRequestError, NotFoundError, UnauthorizedError } from "@/server/core/errors";
import { automations } from "@/server/db/schema";
import { firingTrigger, insertFirings } from "../firing-store";
import { matchesFilter, payloadFields, type PayloadCondition } from "../payload-template";
import { verifySignature, type SignedRequest } from "./verify-signature";

export interface InboundReceipt {
  status: "accepted" | "filtered" | "paused";
  delivery_id: string;
}

/**
 * An outside system's POST to a trigger's URL. Verified first (signature, replay window), then
 * recorded as a firing keyed by the sender's message id: an unverified request and a replayed
 * id are 401 and record nothing. A payload the filter refuses, or a request to a paused trigger,
 * is recorded as skipped; a passing one as `pending`, which the dispatcher starts.
 */
export async function receiveInbound(app: AppContext, id: string, request: SignedRequest): Promise<InboundReceipt> {
  const [trigger] = await app.db.select().from(automations).where(eq(automations.id, id));
  if (!trigger || trigger.kind !== "inbound" || trigger.deletedAt || !trigger.sealedSecret)
    throw new NotFoundError("No inbound trigger has this URL", "trigger_not_found");
  const now = app.now();
  const verified = verifySignature(trigger.signatureScheme!, app.secrets.open(trigger.sealedSecret), request, now);
  if (!verified.ok)
    throw new UnauthorizedError(`Signature verification failed: ${verified.reason}`, "signature_invalid");
  let payload: unknown;
  try {
    payload = JSON.parse(request.rawBody);
  } catch {
    throw new BadRequestError("The body is not JSON; an inbound trigger takes a JSON payload", "invalid_json");
  }
  const passes = matchesFilter(payloadFields(payload), trigger.filter as PayloadCondition[] | null);
  const status = !trigger.isActive ? "paused" : passes ? "accepted" : "filtered";
  const [firing] = await insertFirings(app.db, [
    {
      projectId: trigger.projectId,
      automationId: trigger.id,
      ...firingTrigger(trigger),
      eventKey: `inbound:${verified.messageId}`,
      status: status === "accepted" ? "pending" : "skipped",
      payload,
      error:
        status === "paused"
          ? "the trigger is paused"
          : status === "filtered"
            ? "the payload did not pass the trigger's filter"
            : undefined,
      createdAt: now,
    },
  ]);
  if (!firing)
    throw new UnauthorizedError(
      `Replayed: a request with id ${verified.messageId} was already received by this trigger`,
      "replayed",
    );
  return { status, delivery_id: firing.id };
}

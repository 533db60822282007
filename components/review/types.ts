import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/trpc/root";

type Outputs = inferRouterOutputs<AppRouter>;

export type ReviewQueue = Outputs["review"]["queues"][number];
export type ReviewSessionData = Outputs["review"]["items"];
export type ReviewItem = ReviewSessionData["items"][number];
export type ReviewStep = ReviewSessionData["steps"][number];

export const reviewPath = (queueId: string) => `/review/${queueId}`;

/** Whether a person answered every step the queue asks of this scenario. */
export const isAnnotated = (item: ReviewItem, steps: ReviewStep[]) =>
  steps.length > 0 && steps.every((s) => item.annotations[s.key] !== undefined);

export type ReviewedRevision = NonNullable<ReviewSessionData["queue"]["revision"]>;

/** How a queue names the revision it runs: "adder v2" (a draft has no version). */
export const revisionLabel = (revision: ReviewedRevision) =>
  revision.version ? `${revision.name} v${revision.version}` : revision.name;

/** The revision has not answered this case yet: its output is queued or being made. */
export const outputPending = (item: ReviewItem) => item.outputStatus === "queued" || item.outputStatus === "running";

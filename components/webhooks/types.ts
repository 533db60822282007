import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/trpc/root";

type Out = inferRouterOutputs<AppRouter>["webhooks"];
export type Subscription = Out["get"];
export type DeliverySummary = Out["deliveries"][number];
export type Delivery = Out["delivery"];
export type DeliveryAttempt = NonNullable<Delivery["attempts"]>[number];

import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/trpc/root";

/** An API key as the playground receives it: the REST wire shape, `key` only right after creation. */
export type ApiKey = inferRouterOutputs<AppRouter>["apiKeys"]["list"][number];
export type CreatedApiKey = inferRouterOutputs<AppRouter>["apiKeys"]["create"];

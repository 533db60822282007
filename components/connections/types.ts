import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/trpc/root";

type Outputs = inferRouterOutputs<AppRouter>;

/** A stored connection as the playground receives it: the REST wire shape, key masked. */
export type Connection = Outputs["connections"]["list"][number];
export type ConnectionTest = Outputs["connections"]["test"];
export type ProviderConnection = Outputs["connections"]["providers"][number];
/** A plain secret (code tools' `secrets`, MCP header refs), value masked. */
export type PlainSecret = Outputs["connections"]["secrets"][number];

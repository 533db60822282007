import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/trpc/root";

type Outputs = inferRouterOutputs<AppRouter>["agents"];

/** One row of the agents list: the agent, its default variant's head and what environments run. */
export type AgentListItem = Outputs["list"]["items"][number];
export type AgentDeployment = AgentListItem["deployments"][number];
export type AgentDetails = Outputs["get"];
export type AgentVariant = AgentDetails["variants"][number];

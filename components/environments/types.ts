import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/trpc/root";

type Outputs = inferRouterOutputs<AppRouter>;

export type EnvironmentOverview = Outputs["environments"]["overview"][number];
export type Deployment = EnvironmentOverview["deployments"][number];
export type DeployLogItem = Outputs["environments"]["deploys"]["items"][number];
export type DeployChange = DeployLogItem["changes"][number];
export type DeployedEntry = NonNullable<DeployChange["after"]>;

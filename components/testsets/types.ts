import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/trpc/root";

type Outputs = inferRouterOutputs<AppRouter>;

export type TestsetListItem = Outputs["testsets"]["list"]["items"][number];
export type TestsetRevision = Outputs["testsets"]["history"]["items"][number];

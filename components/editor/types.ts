import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@/server/trpc/root";

type Outputs = inferRouterOutputs<AppRouter>;

export type Revision = Outputs["agents"]["history"]["items"][number];
export type CommitResult = Outputs["agents"]["commit"];
export type HarnessInfo = Outputs["catalog"]["harnesses"][number];
export type HarnessProvider = HarnessInfo["providers"][number];
export type ModelInfo = HarnessProvider["models"][number];

/** The revision the editor starts from: the variant's newest. */
export interface EditorBase {
  revisionId: string;
  version: string;
  author?: string;
  date?: string;
  message?: string;
  /** `data.parameters.agent` as stored; undefined when the revision carries no template. */
  template: unknown;
}

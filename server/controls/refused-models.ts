import type { AppContext } from "@/server/core/app-context";
import { refusedByProject, type AllowlistRule } from "./model-allowlist";
import { projectControls } from "./project-controls";

/** Of `models` (`provider/model`), those the project's model allowlist refuses, with the rule that does. */
export async function projectRefusedModels(
  app: Pick<AppContext, "db" | "dbKind" | "now" | "config">,
  projectId: string,
  models: string[],
): Promise<Record<string, AllowlistRule>> {
  const { allowlists } = await projectControls(app, projectId);
  return refusedByProject(
    models,
    allowlists.filter((row) => row.scope === "project"),
  );
}

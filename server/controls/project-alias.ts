import type { AppContext } from "@/server/core/app-context";
import type { AliasEntry } from "@/server/db/schema";
import { projectControls } from "./project-controls";

/** The project's alias of this name, or undefined: a template's `llm.model` may name one. */
export async function projectAlias(
  app: Pick<AppContext, "db" | "dbKind" | "now" | "config">,
  projectId: string,
  name: string,
): Promise<{ name: string; entries: AliasEntry[]; attemptTimeoutMs: number } | undefined> {
  const alias = (await projectControls(app, projectId)).aliases.find((row) => row.name === name);
  return alias && { name: alias.name, entries: alias.entries, attemptTimeoutMs: alias.attemptTimeoutMs };
}

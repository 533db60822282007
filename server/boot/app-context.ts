import type { AppContext } from "@/server/core/app-context";
import type { Config } from "@/server/core/config";
import type { DatabaseHandle } from "@/server/db";
import type { SecretBox } from "@/server/encryption";
import { PROJECT_SETUPS } from "./project-setups";
import { passDownHandlers } from "./pass-down";

/** The app's context over an open database, put together once for the app, the worker process and the benches. */
export function appContextOf(handle: DatabaseHandle, config: Config, secrets: SecretBox): AppContext {
  const context: AppContext = {
    db: handle.db,
    dbKind: handle.kind,
    config,
    secrets,
    projectSetups: PROJECT_SETUPS,
    now: () => new Date(),
  };
  passDownHandlers(context);
  return context;
}

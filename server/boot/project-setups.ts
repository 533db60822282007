import type { ProjectSetup } from "@/server/core/app-context";
import { seedEnvironments } from "@/server/domains/environments/seed";

/** What every new project starts with: the standard environments. */
export const PROJECT_SETUPS: readonly ProjectSetup[] = [seedEnvironments];

import { createCallerFactory, createTRPCRouter } from "./init";
import { accountRouter } from "./routers/account";
import { agentsRouter } from "./routers/agents";
import { analyticsRouter } from "./routers/analytics";
import { apiKeysRouter } from "./routers/api-keys";
import { auditRouter } from "./routers/audit";
import { redactionRouter } from "./routers/redaction";
import { retentionRouter } from "./routers/retention";
import { catalogRouter } from "./routers/catalog";
import { chatSessionsRouter } from "./routers/chat-sessions";
import { connectionsRouter } from "./routers/connections";
import { connectRouter } from "./routers/connect";
import { controlsRouter } from "./routers/controls";
import { deployGateRouter } from "./routers/deploy-gate";
import { canariesRouter } from "./routers/canaries";
import { environmentsRouter } from "./routers/environments";
import { evaluationsRouter } from "./routers/evaluations";
import { evaluatorsRouter } from "./routers/evaluators";
import { membersRouter } from "./routers/members";
import { pricingRouter } from "./routers/pricing";
import { projectRouter } from "./routers/project";
import { testsetsRouter } from "./routers/testsets";
import { reviewRouter } from "./routers/review";
import { runsRouter } from "./routers/runs";
import { tracesRouter } from "./routers/traces";
import { webhooksRouter } from "./routers/webhooks";
import { automationsRouter } from "./routers/automations";
import { monitorsRouter } from "./routers/monitors";
import { improveRouter } from "./routers/improve";

/** Every router of the playground; a new page area adds its router here. */
export const appRouter = createTRPCRouter({
  account: accountRouter,
  agents: agentsRouter,
  analytics: analyticsRouter,
  apiKeys: apiKeysRouter,
  audit: auditRouter,
  redaction: redactionRouter,
  retention: retentionRouter,
  catalog: catalogRouter,
  chatSessions: chatSessionsRouter,
  connections: connectionsRouter,
  connect: connectRouter,
  controls: controlsRouter,
  deployGate: deployGateRouter,
  environments: environmentsRouter,
  canaries: canariesRouter,
  evaluations: evaluationsRouter,
  evaluators: evaluatorsRouter,
  members: membersRouter,
  pricing: pricingRouter,
  project: projectRouter,
  testsets: testsetsRouter,
  review: reviewRouter,
  runs: runsRouter,
  traces: tracesRouter,
  webhooks: webhooksRouter,
  automations: automationsRouter,
  monitors: monitorsRouter,
  improve: improveRouter,
});

export type AppRouter = typeof appRouter;

/** Calls procedures in-process (server components, tests): `createCaller(ctx).apiKeys.list()`. */
export const createCaller = createCallerFactory(appRouter);

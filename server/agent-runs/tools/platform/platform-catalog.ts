import { z } from "zod";
import { commitRevision } from "./commit-revision";
import { discoverAgents } from "./discover-agents";
import { discoverWorkflows } from "./discover-workflows";
import { operationToWire, platformOperation, type PlatformOperation } from "./platform-operation";
import { queryTraces } from "./query-traces";
import { retrieveRevision } from "./retrieve-revision";

const discoverTools = platformOperation({
  op: "discover_tools",
  description: "Lists the operations of this service an agent can be given as platform tools, with their arguments.",
  endpoint: "GET /api/workflows/catalog/tools",
  readOnly: true,
  bound: [],
  args: z.object({}),
  run: async () => ({ count: PLATFORM_OPERATIONS.length, tools: PLATFORM_OPERATIONS.map(operationToWire) }),
});

/** Every operation a `platform` tool entry can name (`op`), served at GET /api/workflows/catalog/tools. */
export const PLATFORM_OPERATIONS: PlatformOperation[] = [
  discoverTools,
  discoverAgents,
  discoverWorkflows,
  retrieveRevision,
  commitRevision,
  queryTraces,
];

export function findPlatformOperation(op: string): PlatformOperation | undefined {
  return PLATFORM_OPERATIONS.find((operation) => operation.op === op);
}

export function listPlatformTools() {
  return PLATFORM_OPERATIONS.map(operationToWire);
}

import { domainKeys, type DomainName, type DomainSpec } from "@/server/versioning";
import { WORKFLOW_DATA_KEYS } from "./data-keys";
import { environmentsSpec } from "./environments/spec";
import { evaluatorsSpec } from "./evaluators/spec";
import { queriesSpec } from "./queries/spec";
import { testsetsSpec } from "./testsets/spec";
import { workflowsSpec } from "./workflows/spec";

/** What each domain adds to the shared engine; applications add only their data keys. */
export const DOMAIN_SPECS: Record<DomainName, DomainSpec> = {
  applications: { keys: domainKeys("applications"), dataKeys: WORKFLOW_DATA_KEYS },
  workflows: workflowsSpec,
  evaluators: evaluatorsSpec,
  testsets: testsetsSpec,
  queries: queriesSpec,
  environments: environmentsSpec,
};

import { logger } from "@/server/core/logger";
import {
  domainKeys,
  type CommitContext,
  type CommitPayload,
  type DomainSpec,
  type PreparedCommit,
} from "@/server/versioning";
import { WORKFLOW_DATA_KEYS } from "../data-keys";
import { checkAgentTemplate } from "./agent-template-check";

const AGENT_PATH = "data.parameters.agent.";

/**
 * A workflow revision whose `data.parameters.agent` is present carries an agent template: it is
 * validated at commit (400, nothing stored, on failure) and stored as sent; defaults apply when
 * it is read, so a later default change reaches old revisions only where they omitted the field.
 */
export const workflowsSpec: DomainSpec = {
  keys: domainKeys("workflows"),
  dataKeys: WORKFLOW_DATA_KEYS,
  async prepareCommit(ctx: CommitContext, payload: CommitPayload): Promise<PreparedCommit> {
    const data = payload.data ?? {};
    const parameters = data.parameters as Record<string, unknown> | undefined;
    if (!parameters || typeof parameters !== "object" || parameters.agent === undefined) return { data };
    const checked = await checkAgentTemplate(ctx.tx, ctx.projectId, parameters.agent, AGENT_PATH);
    if (checked.warnings.length)
      logger.warn({ workflowId: ctx.artifact.id, warnings: checked.warnings }, "agent template warnings");
    return { data: { ...data, parameters: { ...parameters, agent: checked.stored } }, warnings: checked.warnings };
  },
};

import { getHarness, type AgentTemplate } from "@/server/agent-template";
import type { Config } from "@/server/core/config";
import { BadRequestError } from "@/server/core/errors";
import { urlRefusal } from "@/server/egress";
import { redactorFor } from "@/server/redaction";
import { resolveConnection, type ResolutionContext, type ResolvedConnection } from "../../providers";

/**
 * The credential Claude Code runs with. Its one provider is `anthropic` (unset means it); the
 * model is an alias from the catalog or a full `claude-*` id. `managed` resolves like the core
 * harness (a stored connection: its key, and its base URL as deployment `custom`; else the
 * operator's ANTHROPIC_API_KEY / ANTHROPIC_BASE_URL). `self_managed` injects no credential: the
 * process signs in to the cloud deployment the operator chose (EXTERNAL_HARNESS_CLOUD) with the
 * host's own cloud credentials, or with the host's CLAUDE_CODE_OAUTH_TOKEN.
 */
export async function resolveClaudeConnection(
  llm: AgentTemplate["llm"],
  ctx: ResolutionContext & { config: Pick<Config, "externalHarness"> },
  hostEnv: Record<string, string | undefined>,
): Promise<ResolvedConnection> {
  // Claude Code calls the model itself, past the service's model wrapper: it cannot redact its prompts.
  if ((await redactorFor(ctx.db, ctx.projectId)).modelInput) {
    throw new BadRequestError(
      'This project redacts what is sent to the model (redaction setting model_input), which harness.kind "external_harness" cannot do (Claude Code sends its own requests); use the service harness or turn model_input off',
      "unsupported_setting",
    );
  }
  if (llm.provider && llm.provider !== "anthropic") {
    throw new BadRequestError(
      `llm.provider "${llm.provider}" is not reached by harness.kind "external_harness"; it reaches anthropic only`,
      "unsupported_provider",
    );
  }
  const model = llm.model.replace(/^anthropic\//, "");
  const selection = getHarness("external_harness")!.model_selection;
  const aliases = selection.kind === "alias" ? selection.aliases : [];
  if (!aliases.includes(model) && !/^claude-[a-z0-9.-]+(\[1m\])?$/.test(model)) {
    throw new BadRequestError(
      `llm.model "${llm.model}" is not a model harness.kind "external_harness" selects; use an alias (${aliases.join(", ")}) or a claude-* model id`,
      "unsupported_model",
    );
  }
  if (llm.connection?.mode === "self_managed") {
    const cloud = ctx.config.externalHarness.cloud;
    if (cloud) return { provider: "anthropic", model, deployment: cloud, label: `the ${cloud} sign-in of this host` };
    if (hostEnv.CLAUDE_CODE_OAUTH_TOKEN)
      return { provider: "anthropic", model, deployment: "direct", label: "the Claude sign-in of this host" };
    throw new BadRequestError(
      'llm.connection.mode self_managed on harness.kind "external_harness" needs the operator to set EXTERNAL_HARNESS_CLOUD (bedrock or vertex) or CLAUDE_CODE_OAUTH_TOKEN; or use a managed connection',
      "missing_connection",
    );
  }
  const connection = await resolveConnection({ ...llm, provider: "anthropic", model }, ctx);
  if (connection.provider !== "anthropic") {
    throw new BadRequestError(
      `llm.connection.slug names a ${connection.provider} connection; harness.kind "external_harness" needs an anthropic one`,
      "connection_mismatch",
    );
  }
  // A stored URL is the user's: Claude Code connects to it itself, outside the guarded fetch, so
  // the egress rules are checked here (a literal private address, a loopback name).
  if (connection.fetch && connection.baseUrl) {
    const refusal = urlRefusal(connection.baseUrl, { allowlist: ctx.config.egressAllowlist });
    if (refusal) throw new BadRequestError(`The base URL of ${connection.label} ${refusal}`, "egress_refused");
  }
  return connection;
}

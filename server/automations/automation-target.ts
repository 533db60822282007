import { resolveAgent, type InvokeRequest, type Sampling, type RunAgent } from "@/server/agent-runs";
import type { Principal } from "@/server/auth";
import type { AppContext } from "@/server/core/app-context";
import { BadRequestError, isAppError } from "@/server/core/errors";
import { promptApplicationRun } from "@/server/openai-compat";
import type { RetrieveRefs } from "@/server/versioning";
import type { AutomationInput } from "./automation-input";
import { firingBody, firingInputs, firingSessionId } from "./firing-body";
import { unrenderedTag } from "./payload-template";

type References = AutomationInput["references"];
type Input = AutomationInput["input"];

const APPLICATION_KEYS = ["application", "application_variant", "application_revision"] as const;
const WORKFLOW_KEYS = ["workflow", "workflow_variant", "workflow_revision"] as const;
const given = (references: References, keys: readonly (keyof References)[]) => keys.some((k) => references[k] != null);

/** True when the references name a prompt application (`application*`) rather than an agent. */
export const runsApplication = (references: References) => given(references, APPLICATION_KEYS);

function applicationRefs(references: References): RetrieveRefs {
  return {
    artifact: references.application ?? undefined,
    variant: references.application_variant ?? undefined,
    revision: references.application_revision ?? undefined,
    environment: references.environment ?? undefined,
    key: references.key ?? undefined,
  };
}

const PATHS = { target: "references.application", variables: "input.inputs" };

/**
 * Checks at save that the references name an agent that runs now with messages, or a prompt
 * application whose placeholders the inputs all fill (both are resolved again at every firing).
 */
export async function checkTarget(
  app: AppContext,
  principal: Principal,
  references: References,
  input: Input,
): Promise<void> {
  refuseUnrendered(input);
  if (runsApplication(references)) {
    if (given(references, WORKFLOW_KEYS))
      throw new BadRequestError(
        "references: name an agent (workflow*) or a prompt application (application*), not both",
        "ambiguous_target",
        [{ path: "references", message: "both an agent and an application" }],
      );
    if (input.messages)
      throw new BadRequestError(
        "input.messages: a prompt application runs its own messages; give its {{name}} values in input.inputs instead",
        "messages_not_used",
        [{ path: "input.messages", message: "not used by a prompt application" }],
      );
    await promptApplicationRun(app.db, principal, applicationRefs(references), input.inputs ?? {}, PATHS);
    return;
  }
  if (input.inputs)
    throw new BadRequestError(
      "input.inputs: fill a prompt application's {{name}} placeholders; an agent takes input.messages",
      "inputs_not_used",
      [{ path: "input.inputs", message: "not used by an agent" }],
    );
  if (!input.messages)
    throw new BadRequestError("input.messages: an agent needs at least one message to run", "missing_messages", [
      { path: "input.messages", message: "required for an agent" },
    ]);
  try {
    await resolveAgent(app, principal, { references });
  } catch (error) {
    if (isAppError(error) && error.code === "not_an_agent")
      throw new BadRequestError(
        `${error.message}; an automation runs an agent (references.workflow*) or a prompt application (references.application*)`,
        "not_an_agent",
        [{ path: "references", message: "neither an agent nor a prompt application" }],
      );
    throw error;
  }
}

/** A message or string input holding a tag the renderer does not fill (`{{#section}}`) is refused at save, not at a firing. */
function refuseUnrendered(input: Input): void {
  const texts: [string, string][] = [
    ...(input.messages ?? []).map((m, i): [string, string] => [`input.messages[${i}].content`, m.content]),
    ...Object.entries(input.inputs ?? {}).flatMap(([name, value]): [string, string][] =>
      typeof value === "string" ? [[`input.inputs.${name}`, value]] : [],
    ),
  ];
  for (const [path, text] of texts) {
    const tag = unrenderedTag(text);
    if (tag)
      throw new BadRequestError(
        `${path}: ${tag} is not rendered; only {{ path }} placeholders are filled from the payload`,
        "unsupported_prompt",
        [{ path, message: `${tag} is not rendered` }],
      );
  }
}

/**
 * What a firing starts: an agent's invoke body, or a prompt application rendered now (its
 * environment resolved, its placeholders filled) as an inline template, with its sampling and
 * its name for the run, as the OpenAI door runs it.
 */
export async function firingRun(
  app: AppContext,
  principal: Principal,
  firing: Parameters<typeof firingBody>[0],
): Promise<{ body: InvokeRequest; runs: { sampling?: Sampling; agent?: RunAgent } }> {
  const references = firing.automation.target.references as References;
  if (!runsApplication(references)) return { body: firingBody(firing), runs: {} };
  const application = await promptApplicationRun(
    app.db,
    principal,
    applicationRefs(references),
    firingInputs(firing),
    PATHS,
  );
  return {
    body: {
      session_id: firingSessionId(firing.firing.id),
      data: { inputs: { messages: application.messages }, parameters: { agent: application.template } },
    },
    runs: { sampling: application.sampling, agent: application.agent },
  };
}

import { resolveAgent, type InvokeRequest, type Sampling, type RunAgent } from "@/server/agent-runs";
import type { Principal } from "@/server/auth";
import type { AppContext } from "@/server/core/app-context";
import { BadRequestError, isAppError, SchemaValidationError, type ErrorCode } from "@/server/core/errors";
import { checkOptimizationStart, checkTriageStart, startOptimization, startTriage } from "@/server/improve";
import { promptApplicationRun } from "@/server/openai-compat";
import type { RetrieveRefs } from "@/server/versioning";
import type { AutomationInput } from "./automation-input";
import { firingBody, firingGivenInputs, firingInputs, firingSessionId } from "./firing-body";
import { unrenderedTag } from "./payload-template";
import { unevaluatedSelector } from "./selector-template";

/** What resolving a target's references can refuse at save, as the versioning retrieve refuses them. */
export const TARGET_REFERENCE_ERROR_CODES = [
  "key_without_environment",
  "missing_key",
  "missing_reference",
  "reference_mismatch",
  "version_without_context",
] as const satisfies readonly ErrorCode[];

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
 * The input's own checks, whatever it runs: tags the renderer does not fill, a selector template
 * beside messages or inputs, script expressions. A test subscription's input gets these alone.
 */
export function checkInput(input: Input): void {
  refuseUnrendered(input);
  if (input.fields !== undefined && (input.messages || input.inputs))
    throw new SchemaValidationError([
      { path: "input.fields", message: "a selector template replaces messages and inputs: give one or the other" },
    ]);
  const script = unevaluatedSelector(input.fields);
  if (script)
    throw new SchemaValidationError([
      { path: "input.fields", message: `${script}: script and filter expressions are not evaluated` },
    ]);
}

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
  checkInput(input);
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
    // A template's keys are the inputs it will give (a whole-context string gives unknown keys: checked at firing).
    const inputs =
      typeof input.fields === "object"
        ? Object.fromEntries(Object.keys(input.fields).map((name) => [name, ""]))
        : (input.inputs ?? {});
    if (typeof input.fields !== "string")
      await promptApplicationRun(app.db, principal, applicationRefs(references), inputs, PATHS);
    return;
  }
  if (input.inputs)
    throw new BadRequestError(
      "input.inputs: fill a prompt application's {{name}} placeholders; an agent takes input.messages",
      "inputs_not_used",
      [{ path: "input.inputs", message: "not used by an agent" }],
    );
  if (!input.messages && input.fields === undefined)
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
 * its name for the run, as the OpenAI door runs it; and what the run is given, in the reference
 * implementation's delivery shape (`inputs`, which the firing records).
 */
export async function firingRun(
  app: AppContext,
  principal: Principal,
  firing: Parameters<typeof firingBody>[0],
): Promise<{
  body: InvokeRequest;
  runs: { sampling?: Sampling; agent?: RunAgent };
  inputs: Record<string, unknown>;
}> {
  const references = firing.automation.target.references as References;
  const application = runsApplication(references);
  const inputs = firingGivenInputs(firing, application);
  if (!application) return { body: firingBody(firing), runs: {}, inputs };
  const prompt = await promptApplicationRun(
    app.db,
    principal,
    applicationRefs(references),
    firingInputs(firing),
    PATHS,
  );
  return {
    body: {
      session_id: firingSessionId(firing.firing.id),
      data: { inputs: { messages: prompt.messages }, parameters: { agent: prompt.template } },
    },
    runs: { sampling: prompt.sampling, agent: prompt.agent },
    inputs,
  };
}

/**
 * What a test subscription's firing records in place of a run: the inputs a run would have been
 * given. Its references may be empty (they are not checked), so an input without messages is
 * read as a prompt application's.
 */
export function capturedInputs(firing: Parameters<typeof firingBody>[0]): Record<string, unknown> {
  const references = firing.automation.target.references as References;
  return firingGivenInputs(firing, runsApplication(references) || !firing.automation.input.messages);
}

type Action = NonNullable<AutomationInput["action"]>;

/**
 * An automation that starts a triage or an optimization instead of an agent: it names no agent
 * and no input, and what it starts is checked now as POST /api/improve/triages or
 * /api/improve/optimizations would check it (a monitor's alert excepted: the firing brings it).
 */
export async function checkAction(
  app: AppContext,
  principal: Principal,
  input: Pick<AutomationInput, "references" | "input" | "action">,
): Promise<void> {
  const action = input.action!;
  const named = Object.values(input.references).some((v) => v != null) || Object.keys(input.input).length > 0;
  if (named)
    throw new BadRequestError(
      `action: an automation that starts ${action.kind === "triage" ? "a triage" : "an optimization"} runs no agent; leave references and input out`,
      "ambiguous_target",
      [{ path: "action", message: "given with references or input" }],
    );
  if (action.kind === "triage") await checkTriageStart(app, principal, action.body);
  else await checkOptimizationStart(app.db, principal, action.body);
}

/**
 * Starts what a firing's action names, as the automation's author; its id is the firing's minted
 * run id, so a dispatcher retrying after a crash finds what it started instead of starting another.
 */
export async function startFiringAction(
  app: AppContext,
  principal: Principal,
  action: Action,
  firing: { runId: string; payload: unknown },
): Promise<string> {
  if (action.kind === "triage") return startFiringTriage(app, principal, action, firing);
  return (await startOptimization(app.db, principal, action.body, app.now(), { id: firing.runId })).id;
}

/**
 * A firing's triage. A monitor_alert evidence without an alert takes the one the firing's payload
 * names (a `monitors.alert.fired` event of that monitor).
 */
async function startFiringTriage(
  app: AppContext,
  principal: Principal,
  action: Extract<Action, { kind: "triage" }>,
  firing: { runId: string; payload: unknown },
): Promise<string> {
  const payload = (firing.payload ?? {}) as Record<string, unknown>;
  const evidence = action.body.evidence;
  const fired =
    evidence.kind === "monitor_alert" &&
    !evidence.alert_id &&
    payload.monitor_id === evidence.monitor_id &&
    typeof payload.alert_id === "string";
  const body = fired
    ? { ...action.body, evidence: { ...evidence, alert_id: payload.alert_id as string } }
    : action.body;
  return (await startTriage(app, principal, body, { id: firing.runId })).id;
}

import { Role, TaskState, type Task } from "@a2a-js/sdk";
import type { Principal } from "@/server/auth";
import type { AppContext } from "@/server/core/app-context";
import { newId } from "@/server/core/ids";
import { listEnvironmentStates } from "@/server/domains";
import { exposedName, exposedNow, getExposure, setExposure, type ExposureKind } from "@/server/exposure";
import { textPart } from "./a2a-shapes";
import { a2aHandler } from "./a2a-agent";
import { replyArtifactText } from "./run-to-task";

/** One environment of the project, as the Connect panel shows it for an agent. */
export interface ConnectTarget {
  environment: string;
  environmentName: string;
  /** The environment runs the agent now (a deploy under `<slug>.revision`). */
  deployed: boolean;
  exposed: boolean;
  /** The tool name and A2A path segment: the owner's name or `<slug>@<environment>`. */
  name: string;
}

type Scope = { projectId: string; userId: string };

/** The project's environments for one agent: deployed there or not, exposed there or not. */
export async function connectTargets(
  app: Pick<AppContext, "db">,
  scope: Scope,
  slug: string,
): Promise<ConnectTarget[]> {
  const [states, exposure] = await Promise.all([
    listEnvironmentStates(app.db, scope),
    getExposure(app.db, scope.projectId),
  ]);
  return states.map((state) => {
    const entry = exposure.find((e) => e.kind === "agent" && e.slug === slug && e.environment === state.slug);
    return {
      environment: state.slug,
      environmentName: state.name || state.slug,
      deployed: Boolean(state.references[`${slug}.revision`]),
      exposed: Boolean(entry),
      name: entry?.name ?? exposedName({ slug, environment: state.slug }),
    };
  });
}

/** One entry of the project's Connect page: what a client sees now (a tool and A2A agent, or a prompt). */
export interface ExposedListing {
  kind: ExposureKind;
  name: string;
  slug: string;
  environment: string;
  title: string;
  version: string;
}

/** What the project exposes and its environments run now, as every client sees it (server/exposure's `exposedNow`). */
export async function exposedListing(app: Pick<AppContext, "db">, scope: Scope): Promise<ExposedListing[]> {
  return (await exposedNow(app.db, scope)).map(({ kind, name, slug, environment, title, version }) => ({
    kind,
    name,
    slug,
    environment,
    title,
    version,
  }));
}

/** Exposes the agent at an environment, or stops exposing it, keeping every other entry as the owner set it. */
export async function setAgentExposed(
  app: Pick<AppContext, "db">,
  scope: Scope,
  change: { slug: string; environment: string; exposed: boolean },
): Promise<ConnectTarget[]> {
  const current = await getExposure(app.db, scope.projectId);
  const others = current.filter(
    (e) => !(e.kind === "agent" && e.slug === change.slug && e.environment === change.environment),
  );
  const kept = others.map((e) => ({
    kind: e.kind,
    slug: e.slug,
    environment: e.environment,
    ...(e.custom_name ? { name: e.name } : {}),
  }));
  const added = change.exposed ? [{ kind: "agent" as const, slug: change.slug, environment: change.environment }] : [];
  await setExposure(app, scope, { exposures: [...kept, ...added] });
  return connectTargets(app, scope, change.slug);
}

/**
 * The Connect panel's test: one A2A `message/send` to the exposed agent through the door's own
 * handler, as the signed-in user (the run is recorded with origin `a2a`, on the Runs tab).
 */
export async function testA2aDoor(
  app: AppContext,
  principal: Principal,
  name: string,
  text: string,
): Promise<{ taskId: string; state: string; reply: string; error?: string }> {
  const handler = await a2aHandler(app, principal, name, app.config.publicUrl ?? "");
  const task = (await handler.sendMessage({
    tenant: "",
    message: {
      messageId: newId(),
      contextId: "",
      taskId: "",
      role: Role.ROLE_USER,
      parts: [textPart(text)],
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    },
    configuration: undefined,
    metadata: undefined,
  })) as Task;
  const state = task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED;
  const statusText = task.status?.message?.parts[0]?.content;
  return {
    taskId: task.id,
    state: TaskState[state].replace("TASK_STATE_", "").toLowerCase(),
    reply: replyArtifactText(task),
    ...(state === TaskState.TASK_STATE_FAILED && statusText?.$case === "text" ? { error: statusText.value } : {}),
  };
}

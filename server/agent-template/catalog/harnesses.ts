import { z } from "zod";
import {
  BUILTIN_TOOL_NAMES,
  CONNECTION_MODES,
  HARNESS_KINDS,
  READ_ONLY_BUILTIN_TOOL_NAMES,
  type BuiltinToolName,
  type ConnectionMode,
  type HarnessKind,
} from "../template";
import { CURATED_MODELS, type ModelInfo } from "./models";
import { DEPLOYMENTS, PROVIDER_IDS, PROVIDERS, type Deployment } from "@/shared/providers";

export interface HarnessProvider {
  provider: string;
  display_name: string;
  deployments: Deployment[];
  connection_modes: ConnectionMode[];
  /** Curated picker entries; empty when the harness selects models by alias. */
  models: ModelInfo[];
}

export type ModelSelection =
  | { kind: "provider_model"; description: string }
  | { kind: "alias"; description: string; aliases: string[]; default: string };

/** Served at GET /api/workflows/catalog/harnesses/{harness}. */
export interface HarnessInfo {
  kind: HarnessKind;
  slug: string;
  display_name: string;
  description: string;
  /** Whether harness.permissions is applied (only harnesses that gate tool use read it). */
  gates_permissions: boolean;
  builtin_tools: { name: BuiltinToolName; read_only: boolean }[];
  providers: HarnessProvider[];
  model_selection: ModelSelection;
  /** User MCP servers (`mcps[]`) the harness connects to; absent: a template with one is refused. */
  mcp?: { user_servers: { connection_types: "http"[]; credentials: ("none" | "header_secret_refs")[] } };
  /** Where `skills[]` are laid in the session workspace; absent: the harness does not load skills. */
  skills?: { path: string };
  /** Whether this deployment runs it; a run of an unavailable harness is refused before it starts. */
  available: boolean;
  /** Why it is not available, and the setting that enables it. */
  unavailable_reason?: string;
}

const modelInfoWire = z.strictObject({
  id: z.string(),
  display_name: z.string(),
  context_window: z.number(),
  input_usd_per_mtok: z.number().optional(),
  output_usd_per_mtok: z.number().optional(),
});

/** The schema of HarnessInfo on the wire. */
export const harnessInfoWire = z.strictObject({
  kind: z.enum(HARNESS_KINDS),
  slug: z.string(),
  display_name: z.string(),
  description: z.string(),
  gates_permissions: z.boolean(),
  builtin_tools: z.array(z.strictObject({ name: z.enum(BUILTIN_TOOL_NAMES), read_only: z.boolean() })),
  providers: z.array(
    z.strictObject({
      provider: z.string(),
      display_name: z.string(),
      deployments: z.array(z.enum(Object.keys(DEPLOYMENTS) as [Deployment, ...Deployment[]])),
      connection_modes: z.array(z.enum(CONNECTION_MODES)),
      models: z.array(modelInfoWire),
    }),
  ),
  model_selection: z.discriminatedUnion("kind", [
    z.strictObject({ kind: z.literal("provider_model"), description: z.string() }),
    z.strictObject({
      kind: z.literal("alias"),
      description: z.string(),
      aliases: z.array(z.string()),
      default: z.string(),
    }),
  ]),
  mcp: z
    .strictObject({
      user_servers: z.strictObject({
        connection_types: z.array(z.literal("http")),
        credentials: z.array(z.enum(["none", "header_secret_refs"])),
      }),
    })
    .optional(),
  skills: z.strictObject({ path: z.string() }).optional(),
  available: z.boolean(),
  unavailable_reason: z.string().optional(),
}) satisfies z.ZodType<HarnessInfo>;

/** What the deployment enables (server/core/config.ts): the external harness runs a host process. */
export interface HarnessDeployment {
  externalHarness: boolean;
}

const NO_EXTERNAL: HarnessDeployment = { externalHarness: false };

/** Versioned slug `<service>:harness:<kind>:v0`. */
export function harnessSlug(kind: HarnessKind): string {
  return `svc:harness:${kind}:v0`;
}

const builtinTools = BUILTIN_TOOL_NAMES.map((name) => ({
  name,
  read_only: READ_ONLY_BUILTIN_TOOL_NAMES.includes(name),
}));

const hostedProviders: HarnessProvider[] = PROVIDER_IDS.map((provider) => ({
  provider,
  display_name: PROVIDERS[provider],
  deployments: ["direct", "custom"],
  connection_modes: [...CONNECTION_MODES],
  models: CURATED_MODELS[provider],
}));

/** What the core engine (core and service harnesses) does with `mcps[]` and `skills[]`. */
const coreEngineExtensions: Pick<HarnessInfo, "mcp" | "skills"> = {
  mcp: { user_servers: { connection_types: ["http"], credentials: ["none", "header_secret_refs"] } },
  skills: { path: "skills/<name>/SKILL.md" },
};

const byProviderModel: ModelSelection = {
  kind: "provider_model",
  description: "llm.provider plus llm.model in that provider's namespace (or one provider/model string).",
};

const HARNESSES: Record<HarnessKind, Omit<HarnessInfo, "kind" | "slug" | "available" | "unavailable_reason">> = {
  core_harness: {
    display_name: "Core harness",
    description:
      "The general coding agent with its built-in file and shell tools. Which tool calls run, ask a person first or are refused is the runner policy's decision (runner.permissions).",
    gates_permissions: false,
    builtin_tools: builtinTools,
    providers: hostedProviders,
    model_selection: byProviderModel,
    ...coreEngineExtensions,
  },
  service_harness: {
    display_name: "Service harness",
    description:
      "The core harness engine with the service's own base instructions, its getting-started skill and every platform tool (GET /api/workflows/catalog/tools) forced on.",
    gates_permissions: false,
    builtin_tools: builtinTools,
    providers: hostedProviders,
    model_selection: byProviderModel,
    ...coreEngineExtensions,
  },
  external_harness: {
    display_name: "External harness",
    description:
      "An external coding agent; its service tools arrive over MCP and it renders harness.permissions into its settings file.",
    gates_permissions: true,
    // The template's MCP servers' tools join its tools over agenta-tools; skills are refused (it reads no session workspace).
    mcp: coreEngineExtensions.mcp,
    builtin_tools: [],
    providers: [
      {
        provider: "anthropic",
        display_name: PROVIDERS.anthropic,
        deployments: ["direct", "custom", "bedrock", "vertex"],
        connection_modes: [...CONNECTION_MODES],
        models: [],
      },
    ],
    model_selection: {
      kind: "alias",
      description: "llm.model is an alias the harness resolves itself.",
      aliases: ["default", "sonnet", "haiku", "opus"],
      default: "default",
    },
  },
};

export function getHarness(kind: string, deployment: HarnessDeployment = NO_EXTERNAL): HarnessInfo | undefined {
  if (!(HARNESS_KINDS as readonly string[]).includes(kind)) return undefined;
  const typed = kind as HarnessKind;
  const available = typed !== "external_harness" || deployment.externalHarness;
  return structuredClone({
    kind: typed,
    slug: harnessSlug(typed),
    ...HARNESSES[typed],
    available,
    ...(available
      ? {}
      : {
          unavailable_reason:
            "It runs Claude Code as a process on the server's host; the operator enables it with EXTERNAL_HARNESS=enabled.",
        }),
  });
}

export function listHarnesses(deployment: HarnessDeployment = NO_EXTERNAL): HarnessInfo[] {
  return HARNESS_KINDS.map((kind) => getHarness(kind, deployment) as HarnessInfo);
}

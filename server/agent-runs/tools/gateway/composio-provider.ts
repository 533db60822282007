import { AppError, BadRequestError } from "@/server/core/errors";
import type { GatewayAction, GatewayActionSpec, GatewayProvider } from "./gateway-provider";

const TIMEOUT_MS = 30_000;

/** Composio's tool slug: `GITHUB_CREATE_ISSUE` from integration `github` and action `create_issue` (or the full slug). */
export function composioSlug(action: GatewayAction): string {
  const integration = action.integration.toUpperCase();
  const name = action.action.toUpperCase();
  return name.startsWith(`${integration}_`) ? name : `${integration}_${name}`;
}

/**
 * Composio's REST API v3 (`x-api-key`): `GET /api/v3/tools/{slug}` describes an action,
 * `POST /api/v3/tools/execute/{slug}` runs it as a connected account. Responses carry
 * `{successful, data, error}`; error texts are masked of the key before anyone sees them.
 */
export class ComposioProvider implements GatewayProvider {
  readonly id = "composio";

  constructor(private readonly options: { apiKey: string; baseUrl: string; fetch?: typeof globalThis.fetch }) {}

  async describe(action: GatewayAction, signal?: AbortSignal): Promise<GatewayActionSpec> {
    const slug = composioSlug(action);
    const response = await this.request(
      "GET",
      `/api/v3/tools/${encodeURIComponent(slug)}?toolkit_versions=latest`,
      undefined,
      signal,
    ).catch((error: unknown) => {
      throw new AppError(
        502,
        "gateway_unreachable",
        `Composio could not be reached to describe ${slug}: ${this.mask(String((error as Error).message ?? error))}`,
      );
    });
    if (response.status === 404)
      throw new BadRequestError(
        `Composio has no action ${slug} (integration "${action.integration}", action "${action.action}")`,
        "gateway_action_not_found",
      );
    if (!response.ok)
      throw new AppError(
        502,
        "gateway_error",
        `Composio answered ${response.status} when describing ${slug}: ${await this.errorText(response)}`,
      );
    const body = (await response.json()) as {
      slug?: string;
      description?: string;
      input_parameters?: Record<string, unknown>;
      version?: string;
    };
    return {
      id: body.slug ?? slug,
      description: body.description ?? slug,
      inputSchema: toObjectSchema(body.input_parameters),
      ...(body.version ? { version: body.version } : {}),
    };
  }

  async execute(action: GatewayAction, spec: GatewayActionSpec, args: unknown, signal?: AbortSignal): Promise<unknown> {
    const response = await this.request(
      "POST",
      `/api/v3/tools/execute/${encodeURIComponent(spec.id)}`,
      {
        connected_account_id: action.connection,
        arguments: args ?? {},
        ...(spec.version ? { version: spec.version } : {}),
      },
      signal,
    ).catch((error: unknown) => {
      throw new Error(`Composio could not be reached: ${this.mask(String((error as Error).message ?? error))}`);
    });
    if (!response.ok) throw new Error(`Composio answered ${response.status}: ${await this.errorText(response)}`);
    const body = (await response.json()) as { successful?: boolean; data?: unknown; error?: unknown };
    if (body.successful === false)
      throw new Error(
        `${spec.id} failed: ${this.mask(typeof body.error === "string" ? body.error : JSON.stringify(body.error ?? "no error given"))}`,
      );
    return body.data ?? null;
  }

  /** A GET that failed before any answer (a pooled connection the server had just closed) is tried once more; it changes nothing. */
  private async request(method: string, path: string, body: unknown, signal?: AbortSignal): Promise<Response> {
    try {
      return await this.send(method, path, body, signal);
    } catch (error) {
      if (method !== "GET" || signal?.aborted) throw error;
      return this.send(method, path, body, signal);
    }
  }

  private send(method: string, path: string, body: unknown, signal?: AbortSignal): Promise<Response> {
    const timeout = AbortSignal.timeout(TIMEOUT_MS);
    return (this.options.fetch ?? fetch)(`${this.options.baseUrl}${path}`, {
      method,
      headers: {
        "x-api-key": this.options.apiKey,
        accept: "application/json",
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
    });
  }

  /** The error message of a Composio error body (`{error: {message}}`), masked and cut short. */
  private async errorText(response: Response): Promise<string> {
    const text = await response.text().catch(() => "");
    let message = text;
    try {
      const parsed = JSON.parse(text) as { error?: { message?: string } | string; message?: string };
      message = (typeof parsed.error === "string" ? parsed.error : parsed.error?.message) ?? parsed.message ?? text;
    } catch {
      // Not JSON: the raw text, cut below.
    }
    return this.mask(message).slice(0, 500);
  }

  private mask(text: string): string {
    return text.split(this.options.apiKey).join("[secret]");
  }
}

/**
 * Composio describes arguments either as a JSON Schema object or as a map of name to
 * `{type, description, required}`; the model gets a JSON Schema object either way.
 */
export function toObjectSchema(parameters: Record<string, unknown> | undefined): Record<string, unknown> {
  if (!parameters) return { type: "object", properties: {} };
  if (parameters.type === "object") return parameters;
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const [name, value] of Object.entries(parameters)) {
    const { required: isRequired, ...schema } = (value ?? {}) as Record<string, unknown>;
    properties[name] = schema;
    if (isRequired === true) required.push(name);
  }
  return { type: "object", properties, ...(required.length ? { required } : {}) };
}

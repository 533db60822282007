import { errorText } from "@/shared/error-text";

/** The service's REST API over HTTP with an API key: what the CI gate needs and nothing else. */
export class ServiceClient {
  constructor(
    private readonly url: string,
    private readonly apiKey: string,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the CLI reads the service's JSON answers field by field
  async call<T = any>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await this.fetchImpl(`${this.url}${path}`, {
      method,
      headers: { authorization: `ApiKey ${this.apiKey}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    const parsed = text ? JSON.parse(text) : undefined;
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${errorText(parsed) ?? text}`);
    return parsed as T;
  }

  /** The revision a reference names, in the first of `domains` that has it. */
  async revision(
    domains: [string, string][],
    body: Record<string, unknown>,
    what: string,
  ): Promise<{ id: string; slug: string; version: string }> {
    const errors: string[] = [];
    for (const [domain, one] of domains) {
      try {
        const reply = await this.call(
          "POST",
          `/api/${domain}/revisions/retrieve`,
          typeof body.ref === "string" ? { [`${one}_ref`]: { slug: body.ref } } : body,
        );
        const revision = reply[`${one}_revision`];
        if (revision?.id) return revision;
      } catch (error) {
        errors.push((error as Error).message);
      }
    }
    throw new Error(`${what}: ${errors.join("; ")}`);
  }
}

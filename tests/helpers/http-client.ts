/** A tiny browser stand-in over real HTTP: keeps cookies and sends an Origin like a page would. */
export class HttpClient {
  private readonly cookies = new Map<string, string>();

  constructor(readonly base: string) {}

  get cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  async send(
    method: string,
    path: string,
    options: { body?: unknown; rawBody?: string; headers?: Record<string, string>; origin?: string | null } = {},
  ) {
    const headers: Record<string, string> = { ...options.headers };
    if (this.cookies.size) headers.cookie = this.cookieHeader;
    // Browsers send Origin on every POST; null means "a non-browser client".
    const origin = options.origin === undefined ? this.base : options.origin;
    if (origin !== null && method !== "GET") headers.origin = origin;
    let body = options.rawBody;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers["content-type"] ??= "application/json";
    }
    const response = await fetch(this.base + path, { method, headers, body, redirect: "manual" });
    const setCookies = response.headers.getSetCookie();
    for (const cookie of setCookies) {
      const [pair] = cookie.split(";");
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      if (value === "" || /max-age=0/i.test(cookie)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await response.text();
    let json: any;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = text;
    }
    return { status: response.status, body: json, setCookies };
  }

  /** A tRPC query over GET, unwrapped from superjson's `{json}`. */
  async query(procedure: string, input?: unknown) {
    const qs = input === undefined ? "" : `?input=${encodeURIComponent(JSON.stringify({ json: input }))}`;
    return this.unwrap(await this.send("GET", `/api/trpc/${procedure}${qs}`));
  }

  async mutate(
    procedure: string,
    input?: unknown,
    options: { origin?: string | null; headers?: Record<string, string> } = {},
  ) {
    return this.unwrap(
      await this.send("POST", `/api/trpc/${procedure}`, { body: { json: input ?? null }, ...options }),
    );
  }

  private unwrap(r: { status: number; body: any }) {
    return {
      status: r.status,
      data: r.body?.result?.data?.json,
      error: r.body?.error?.json as { message: string; data: any } | undefined,
    };
  }
}

import http from "node:http";
import type { AddressInfo } from "node:net";

export interface ComposioCall {
  method: string;
  path: string;
  apiKey: string | undefined;
  body: any;
}

/**
 * A scripted Composio (REST API v3) on a real socket: `GET /api/v3/tools/{slug}` describes the
 * actions below (one with a JSON Schema, one with Composio's map of parameters), `POST
 * /api/v3/tools/execute/{slug}` answers `{successful, data, error}`; a wrong `x-api-key` gets 401.
 */
export async function startFakeComposio(
  apiKey: string,
): Promise<{ url: string; calls: ComposioCall[]; close(): Promise<void> }> {
  const calls: ComposioCall[] = [];
  const tools: Record<string, unknown> = {
    GITHUB_CREATE_ISSUE: {
      slug: "GITHUB_CREATE_ISSUE",
      name: "Create an issue",
      description: "Creates an issue in a GitHub repository.",
      toolkit: { slug: "github", name: "GitHub" },
      input_parameters: {
        type: "object",
        properties: { title: { type: "string", description: "Issue title" } },
        required: ["title"],
      },
      version: "20250905_00",
    },
    SLACK_SEND_MESSAGE: {
      slug: "SLACK_SEND_MESSAGE",
      name: "Send message",
      description: "Posts a message to a Slack channel.",
      toolkit: { slug: "slack", name: "Slack" },
      input_parameters: {
        channel: { type: "string", description: "Channel id", required: true },
        text: { type: "string", required: true },
      },
    },
  };
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString("utf8");
    const url = new URL(req.url ?? "/", "http://composio");
    const call: ComposioCall = {
      method: req.method ?? "",
      path: url.pathname + url.search,
      apiKey: req.headers["x-api-key"] as string | undefined,
      body: raw ? JSON.parse(raw) : undefined,
    };
    calls.push(call);
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (call.apiKey !== apiKey) return reply(401, { error: { message: "Invalid API key", code: 401, status: 401 } });
    const describe = /^\/api\/v3\/tools\/([A-Z0-9_]+)$/.exec(url.pathname);
    if (req.method === "GET" && describe) {
      const tool = tools[describe[1]];
      return tool
        ? reply(200, tool)
        : reply(404, { error: { message: `Tool ${describe[1]} not found`, code: 404, status: 404 } });
    }
    const execute = /^\/api\/v3\/tools\/execute\/([A-Z0-9_]+)$/.exec(url.pathname);
    if (req.method === "POST" && execute) {
      if (!tools[execute[1]]) return reply(404, { error: { message: "Tool not found" } });
      const args = call.body?.arguments ?? {};
      if (args.title === "fail")
        return reply(200, {
          successful: false,
          data: {},
          error: "Repository not found or access denied",
          log_id: "log_1",
        });
      if (args.title === "boom") return reply(500, { error: { message: "Internal error", code: 500 } });
      return reply(200, {
        successful: true,
        data: { number: 42, echo: args, account: call.body.connected_account_id },
        error: null,
        log_id: "log_2",
      });
    }
    reply(404, { error: { message: "no such route" } });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

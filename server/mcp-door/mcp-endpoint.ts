import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import {
  isInitializeRequest,
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type InitializeRequest,
  type JSONRPCMessage,
} from "@modelcontextprotocol/sdk/types.js";
import type { AppContext } from "@/server/core/app-context";
import { baseUrlOf } from "@/server/oauth";
import { announceAnswer, answersHeard, awaitAnswer } from "./answer-bus";
import { announceCancel, cancellableCall } from "./cancel-bus";
import { authenticateMcp } from "./door-auth";
import { watchLists } from "./list-watch";
import { createMcpServer } from "./mcp-server";
import { newMcpSessionId, readMcpSession } from "./mcp-session";

const SESSION_HEADER = "mcp-session-id";

/**
 * One request to a project's MCP endpoint (Streamable HTTP), answered by a server made for it:
 * any instance answers any request. The session lives in its id (server/mcp-door/mcp-session.ts);
 * a POST that starts one gets it in `Mcp-Session-Id`. A client's cancellation, and its answers to
 * the server's requests (elicitation), are passed to the instance running the call; a GET opens
 * the stream `list_changed` notifications travel on.
 */
export async function handleMcpRequest(app: AppContext, request: Request, projectId: string): Promise<Response> {
  const baseUrl = baseUrlOf(app, request);
  const principal = await authenticateMcp(app, request.headers.get("authorization"), projectId, baseUrl);
  let session = readMcpSession(request.headers.get(SESSION_HEADER));
  let body: unknown;
  let messages: JSONRPCMessage[] = [];
  let started: string | undefined;
  if (request.method === "POST") {
    body = await request.json().catch(() => undefined);
    messages = (Array.isArray(body) ? body : [body]) as JSONRPCMessage[];
    const initialize = messages.find(
      (message): message is JSONRPCMessage & InitializeRequest =>
        methodOf(message) === "initialize" && isInitializeRequest(message),
    );
    if (initialize) {
      started = newMcpSessionId(Boolean(initialize.params.capabilities.elicitation));
      session = readMcpSession(started);
    } else if (session) {
      for (const message of messages)
        if (methodOf(message) === "notifications/cancelled" && isJSONRPCNotification(message))
          await announceCancel(app.db, session.id, message.params!.requestId as string | number);
      // Answers to the server's requests only: they belong to the call that asked, wherever it runs.
      if (messages.length && messages.every(isAnswer)) {
        for (const message of messages) await announceAnswer(app.db, session.id, message);
        return new Response(null, { status: 202 });
      }
    }
  }
  const server = createMcpServer({
    app,
    principal,
    request,
    session,
    baseUrl,
    cancellable: (requestId, signal) => (session ? cancellableCall(app.db, session.id, requestId, signal) : undefined),
  });
  // A POST whose server says nothing before its answers gets them as one JSON body (the transport
  // lets the server choose): no event stream to build, pipe and parse on either side. Only a call
  // with a progress token, or any call of a session that can be asked (elicitation), needs one.
  const streamed = request.method !== "POST" || Boolean(session?.elicitation) || messages.some(asksProgress);
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: !streamed,
  });
  await server.connect(transport);
  const unanswered = session?.elicitation ? answerable(app, session.id, transport) : undefined;
  const unwatch = request.method === "GET" ? await watchLists(app.db, projectId, principal.userId, server) : undefined;
  const close = () => {
    unwatch?.();
    unanswered?.();
    void server.close();
  };
  const handled = () => transport.handleRequest(request, body === undefined ? undefined : { parsedBody: body });
  const response = streamed ? await handled() : await answeredWhole(request.signal, handled);
  const headers = new Headers(response.headers);
  if (started) headers.set(SESSION_HEADER, started);
  if (!streamed || !response.body) {
    close();
    return new Response(response.body, { status: response.status, headers });
  }
  // The server lives as long as its answer's stream: until the last message, or the client going away.
  const ended = new TransformStream<Uint8Array, Uint8Array>({ flush: close });
  void response.body.pipeTo(ended.writable).catch(close);
  return new Response(ended.readable, { status: response.status, headers });
}

/**
 * The answer to a POST that is not streamed, once all its answers are ready, or as soon as the
 * client goes away: the server is then closed, which aborts its calls (and so cancels their runs)
 * as the end of a streamed answer does, and the answer given reaches no one.
 */
async function answeredWhole(signal: AbortSignal, handled: () => Promise<Response>): Promise<Response> {
  let gone!: () => void;
  const left = new Promise<Response>((resolve) => {
    gone = () => resolve(new Response(null, { status: 202 }));
  });
  if (signal.aborted) gone();
  else signal.addEventListener("abort", gone, { once: true });
  try {
    return await Promise.race([handled(), left]);
  } finally {
    signal.removeEventListener("abort", gone);
  }
}

const asksProgress = (message: unknown) =>
  (message as { params?: { _meta?: { progressToken?: unknown } } } | null)?.params?._meta?.progressToken !== undefined;

/**
 * A message's method, read before the SDK's guards: each guard is a full schema parse (~25 µs),
 * and a tool call's request would otherwise go through three that cannot match it.
 */
const methodOf = (message: unknown) =>
  typeof message === "object" && message !== null && "method" in message ? message.method : undefined;

// The answer schemas are strict: a message with a method is never one.
const isAnswer = (message: JSONRPCMessage) =>
  methodOf(message) === undefined && (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message));

/**
 * Lets the server's requests on this transport (elicitation, on a tool call's stream) be answered
 * from any instance: each goes out under an id unique across instances, and the answer, heard on
 * the answer bus, comes back in under the id the server gave it. Returns the release.
 */
function answerable(
  app: AppContext,
  sessionId: string,
  transport: WebStandardStreamableHTTPServerTransport,
): () => void {
  const send = transport.send.bind(transport);
  const releases: Array<() => void> = [];
  transport.send = async (message, options) => {
    if (!isJSONRPCRequest(message)) return send(message, options);
    const asked = message.id;
    const waiting = awaitAnswer(app.db, sessionId, (answer) => {
      waiting.release();
      transport.onmessage?.({ ...answer, id: asked } as JSONRPCMessage);
    });
    releases.push(waiting.release);
    await answersHeard(app.db);
    return send({ ...message, id: waiting.id }, options);
  };
  return () => releases.forEach((release) => release());
}

import { formatSSEErrorEvent, formatSSEEvent, SSE_HEADERS } from "@a2a-js/sdk";
import { A2A_LEGACY_PROTOCOL_VERSION } from "@a2a-js/sdk/compat/v0_3";
import { LegacyJsonRpcTransportHandler } from "@a2a-js/sdk/compat/v0_3/server";
import {
  JsonRpcTransportHandler,
  ServerCallContext,
  validateVersion,
  type A2ARequestHandler,
} from "@a2a-js/sdk/server";

type Envelope = { jsonrpc: string; id: string | number | null; result?: unknown; error?: unknown };

/**
 * One JSON-RPC call to an A2A agent, answered as the SDK's Express adapter answers it, on web
 * `Request`/`Response`: protocol 0.3 (`message/send`, `tasks/get` ...) when `A2A-Version` is
 * absent or 0.3, 1.0 (`SendMessage` ...) when it says 1.0. A single answer is the JSON-RPC
 * envelope (errors included: JSON-RPC reports them with 200); a streaming method answers SSE, one
 * envelope per event, unless it fails before its first event.
 */
export async function answerJsonRpc(
  handler: A2ARequestHandler,
  body: Record<string, unknown>,
  versionHeader: string | null,
): Promise<Envelope | Response> {
  const legacy = (versionHeader || A2A_LEGACY_PROTOCOL_VERSION) === A2A_LEGACY_PROTOCOL_VERSION;
  const transport = legacy ? new LegacyJsonRpcTransportHandler(handler) : new JsonRpcTransportHandler(handler);
  const toError = legacy
    ? LegacyJsonRpcTransportHandler.mapToLegacyJSONRPCError
    : JsonRpcTransportHandler.mapToJSONRPCError;
  const id = (body.id as Envelope["id"]) ?? null;
  try {
    const context = new ServerCallContext({ requestedVersion: versionHeader || A2A_LEGACY_PROTOCOL_VERSION });
    validateVersion(context.requestedVersion, await handler.getAgentCard(), "JSONRPC");
    const answer = await transport.handle(body, context);
    if (!isStream(answer)) return answer as Envelope;
    const iterator = answer[Symbol.asyncIterator]();
    let first: IteratorResult<unknown>;
    try {
      first = await iterator.next();
    } catch (error) {
      return { jsonrpc: "2.0", id, error: toError(error) };
    }
    return new Response(sseBody(first, iterator, id, toError), { headers: SSE_HEADERS });
  } catch (error) {
    return { jsonrpc: "2.0", id, error: toError(error) };
  }
}

function isStream(value: unknown): value is AsyncGenerator<unknown> {
  return typeof (value as AsyncGenerator<unknown> | null)?.[Symbol.asyncIterator] === "function";
}

/** The events as SSE; a failure mid-stream is an `error` event; the client going away stops the follow. */
function sseBody(
  first: IteratorResult<unknown>,
  iterator: AsyncIterator<unknown>,
  id: Envelope["id"],
  toError: (error: unknown) => unknown,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let pending: IteratorResult<unknown> | undefined = first;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = pending ?? (await iterator.next());
        pending = undefined;
        if (next.done) return controller.close();
        controller.enqueue(encoder.encode(formatSSEEvent(next.value)));
      } catch (error) {
        controller.enqueue(encoder.encode(formatSSEErrorEvent({ jsonrpc: "2.0", id, error: toError(error) })));
        controller.close();
      }
    },
    async cancel() {
      await iterator.return?.(undefined);
    },
  });
}

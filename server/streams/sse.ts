/** SSE comment line clients ignore; sent on idle streams so proxies keep the connection open. */
export const SSE_KEEPALIVE = ": keepalive\n\n";
export const SSE_DONE = "data: [DONE]\n\n";

/**
 * Objects to SSE `data:` lines; `sentinel` appends `data: [DONE]` (the UI Message Stream, OpenAI
 * chat completions); `event` names each event (`event:` line, as OpenAI's Responses stream does).
 */
export function sseStream<T>(options: {
  sentinel: boolean;
  event?: (value: T) => string;
  /** The frame's `id:` (a resume position a client sends back as `Last-Event-ID`). */
  id?: () => string;
}): TransformStream<T, string> {
  return new TransformStream({
    transform(value, controller) {
      const id = options.id ? `id: ${options.id()}\n` : "";
      const name = options.event ? `event: ${options.event(value)}\n` : "";
      controller.enqueue(`${id}${name}data: ${JSON.stringify(value)}\n\n`);
    },
    flush(controller) {
      if (options.sentinel) controller.enqueue(SSE_DONE);
    },
  });
}

/** Objects to newline-delimited JSON. */
export function ndjsonStream<T>(): TransformStream<T, string> {
  return new TransformStream({
    transform(value, controller) {
      controller.enqueue(`${JSON.stringify(value)}\n`);
    },
  });
}

/**
 * Interleaves `: keepalive` comments into a text stream whenever `intervalMs` passes without a
 * write. A pass-through stage, so cancelling the response still cancels the source (the run).
 */
export function keepaliveStream(intervalMs: number): TransformStream<string, string> {
  let timer: ReturnType<typeof setInterval> | undefined;
  let lastWrite = Date.now();
  return new TransformStream<string, string>({
    start(controller) {
      timer = setInterval(() => {
        if (Date.now() - lastWrite < intervalMs) return;
        lastWrite = Date.now();
        try {
          controller.enqueue(SSE_KEEPALIVE);
        } catch {
          // The response was cancelled (Node 20 has no transformer `cancel` hook to tell us).
          clearInterval(timer);
        }
      }, intervalMs);
      timer.unref?.();
    },
    transform(chunk, controller) {
      lastWrite = Date.now();
      controller.enqueue(chunk);
    },
    flush() {
      clearInterval(timer);
    },
  });
}

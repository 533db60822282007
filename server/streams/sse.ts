/** SSE comment line clients ignore; sent on idle streams so proxies keep the connection open. */
export const SSE_KEEPALIVE = ": keepalive\n\n";
export const SSE_DONE = "data: [DONE]\n\n";

/** Objects to SSE `data:` lines; `sentinel` appends `data: [DONE]` (UI Message Stream only). */
export function sseStream<T>(options: { sentinel: boolean }): TransformStream<T, string> {
  return new TransformStream({
    transform(value, controller) {
      controller.enqueue(`data: ${JSON.stringify(value)}\n\n`);
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
 * write. Cancelling the result cancels the source, so a client disconnect reaches the run.
 */
export function withKeepalive(source: ReadableStream<string>, intervalMs: number): ReadableStream<string> {
  const reader = source.getReader();
  let timer: ReturnType<typeof setInterval> | undefined;
  let lastWrite = Date.now();
  return new ReadableStream<string>({
    start(controller) {
      timer = setInterval(() => {
        if (Date.now() - lastWrite < intervalMs) return;
        lastWrite = Date.now();
        controller.enqueue(SSE_KEEPALIVE);
      }, intervalMs);
      timer.unref?.();
    },
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) {
        clearInterval(timer);
        controller.close();
        return;
      }
      lastWrite = Date.now();
      controller.enqueue(value);
    },
    async cancel(reason) {
      clearInterval(timer);
      await reader.cancel(reason);
    },
  });
}

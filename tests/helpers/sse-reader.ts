export interface SseEvent {
  id?: string;
  event?: string;
  data?: string;
  comment?: string;
}

/** Reads server-sent events off a response as they arrive. */
export function sseReader(response: Response) {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  const queue: SseEvent[] = [];
  return {
    async next(timeoutMs = 2_000): Promise<SseEvent> {
      const deadline = Date.now() + timeoutMs;
      while (queue.length === 0) {
        const blocks = buffer.split("\n\n");
        buffer = blocks.pop()!;
        for (const block of blocks) {
          const event: SseEvent = {};
          for (const line of block.split("\n")) {
            if (line.startsWith(":")) event.comment = line.slice(1).trim();
            else {
              const [field, ...rest] = line.split(": ");
              (event as Record<string, string>)[field] = rest.join(": ");
            }
          }
          queue.push(event);
        }
        if (queue.length) break;
        const left = deadline - Date.now();
        if (left <= 0) throw new Error("no event in time");
        const chunk = await Promise.race([
          reader.read(),
          new Promise<never>((_, reject) => setTimeout(() => reject(new Error("no event in time")), left)),
        ]);
        if (chunk.done) throw new Error("the stream ended");
        buffer += chunk.value;
      }
      return queue.shift()!;
    },
  };
}

import { readUIMessageStream, uiMessageChunkSchema, type UIMessage, type UIMessageChunk } from "ai";
import { expect } from "vitest";

/**
 * Every chunk must pass the AI SDK's own schema; returns the message its reader reassembles and
 * the error parts it reported (`errors`, which must equal the expected list). `continues` is the
 * assistant message a resumed turn continues, as a client holding it would read the stream.
 */
export async function checkUiChunks(
  chunks: unknown[],
  expectedErrors: string[] = [],
  continues?: UIMessage,
): Promise<UIMessage> {
  const schema = uiMessageChunkSchema();
  for (const chunk of chunks) {
    const result = await schema.validate!(chunk);
    expect(result.success, `chunk fails uiMessageChunkSchema: ${JSON.stringify(chunk)}`).toBe(true);
  }
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk as UIMessageChunk);
      controller.close();
    },
  });
  let last: UIMessage | undefined;
  const errors: string[] = [];
  for await (const message of readUIMessageStream({
    stream,
    message: continues,
    onError: (e) => errors.push((e as Error).message),
  }))
    last = message;
  expect(errors).toEqual(expectedErrors);
  expect(last).toBeDefined();
  return last!;
}

/** The `data:` payloads of an SSE body (comments and the [DONE] sentinel left out). */
export function sseData(text: string): { frames: unknown[]; sentinel: boolean; comments: string[] } {
  const frames: unknown[] = [];
  const comments: string[] = [];
  let sentinel = false;
  for (const block of text.split("\n\n")) {
    if (!block.trim()) continue;
    for (const line of block.split("\n")) {
      if (line.startsWith(":")) comments.push(line);
      else if (line === "data: [DONE]") sentinel = true;
      else if (line.startsWith("data: ")) frames.push(JSON.parse(line.slice(6)));
    }
  }
  return { frames, sentinel, comments };
}

export function ndjsonData(text: string): unknown[] {
  return text
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line));
}

import { BadRequestError, PayloadTooLargeError } from "@/server/core/errors";
import { assertJsonDepth } from "@/server/core/json-depth";

/**
 * Reads at most `limit` bytes of a web request: the declared Content-Length is checked first,
 * and the stream is cut off as soon as it passes the limit, so a lying or absent header cannot
 * exhaust memory.
 */
export async function readWebBody(request: Request, limit: number): Promise<Buffer | undefined> {
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > limit) throw new PayloadTooLargeError(limit);
  if (!request.body) return undefined;
  const read = await readAtMost(request.body, limit);
  if ("tooLarge" in read) throw new PayloadTooLargeError(limit);
  return read.bytes;
}

/**
 * A stream's bytes when they are at most `limit`. Past it the stream is cancelled at once and
 * `tooLarge` is how many had arrived: a request's or a response's body, whatever its length says.
 */
export async function readAtMost(
  body: ReadableStream<Uint8Array>,
  limit: number,
): Promise<{ bytes: Buffer } | { tooLarge: number }> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return { tooLarge: size };
    }
    chunks.push(value);
  }
  return { bytes: Buffer.concat(chunks) };
}

/** A JSON body, or undefined when it is empty or blank; malformed or too deeply nested JSON is a 400. */
export function parseJsonBody(raw: Buffer | undefined): unknown {
  if (raw === undefined || raw.length === 0) return undefined;
  const text = raw.toString("utf8");
  if (text.trim() === "") return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new BadRequestError(`Request body is not valid JSON: ${(error as Error).message}`, "invalid_json");
  }
  assertJsonDepth(value, "The request body");
  return value;
}

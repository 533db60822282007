import { BadRequestError, PayloadTooLargeError } from "@/server/core/errors";

/**
 * Reads at most `limit` bytes: the declared Content-Length is checked first, and the stream is
 * cut off as soon as it passes the limit, so a lying or absent header cannot exhaust memory.
 */
export async function readBodyBytes(request: Request, limit: number): Promise<Buffer> {
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > limit) throw new PayloadTooLargeError(limit);
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw new PayloadTooLargeError(limit);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** The body as JSON (undefined when empty), within `limit` bytes. */
export async function readJsonBody(request: Request, limit: number): Promise<unknown> {
  const text = (await readBodyBytes(request, limit)).toString("utf8");
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new BadRequestError(`Request body is not valid JSON: ${(error as Error).message}`, "invalid_json");
  }
}

import { gunzipSync, inflateSync } from "node:zlib";
import { BadRequestError, PayloadTooLargeError, UnsupportedMediaTypeError } from "@/server/core/errors";
import { scanJsonDepth, tooDeep } from "@/server/core/json-depth";
import { parseJsonBody, readWebBody } from "@/server/http/read-body";

/**
 * Reads a request body of at most `limit` bytes, then undoes gzip or deflate, named by
 * `Content-Encoding` or recognised by magic bytes (the reference implementation reads only the
 * bytes); the decompressed size is held to the same limit, so a small bomb cannot fill memory.
 */
export async function readRawBody(request: Request, limit: number): Promise<Buffer> {
  const raw = (await readWebBody(request, limit)) ?? Buffer.alloc(0);
  const encoding = (request.headers.get("content-encoding") ?? "").trim().toLowerCase();
  return decompress(raw, encoding, limit);
}

function decompress(raw: Buffer, encoding: string, limit: number): Buffer {
  const gzip = encoding === "gzip" || encoding === "x-gzip" || (encoding === "" && raw[0] === 0x1f && raw[1] === 0x8b);
  const deflate =
    encoding === "deflate" || (encoding === "" && raw[0] === 0x78 && [0x01, 0x5e, 0x9c, 0xda].includes(raw[1] ?? -1));
  if (!gzip && !deflate) {
    if (encoding !== "" && encoding !== "identity")
      throw new UnsupportedMediaTypeError(`Content-Encoding ${encoding} is not supported; use gzip, deflate or none`);
    return raw;
  }
  try {
    return gzip ? gunzipSync(raw, { maxOutputLength: limit }) : inflateSync(raw, { maxOutputLength: limit });
  } catch (error) {
    if ((error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") throw new PayloadTooLargeError(limit);
    throw new BadRequestError(
      `The body is not valid ${gzip ? "gzip" : "deflate"} data: ${(error as Error).message}`,
      "invalid_encoding",
    );
  }
}

export function parseJsonBuffer(body: Buffer): unknown {
  // Refused on the bytes, before a deeply nested body (up to TRACING_MAX_BODY_BYTES) is parsed.
  if (scanJsonDepth(body).tooDeep) throw tooDeep("The request body");
  return parseJsonBody(body);
}

import { BadRequestError, UnsupportedMediaTypeError } from "@/server/core/errors";
import { assertJsonDepth, scanJsonDepth, tooDeep } from "@/server/core/json-depth";
// The OpenTelemetry JS SDK's protobufjs code, generated from the official OTLP .proto files.
import * as otlpRoot from "@opentelemetry/otlp-transformer/build/src/generated/root";
import { isObject, type JsonObject } from "../attributes";
import { scanOtlpProtobufDepth } from "./protobuf-depth";

type Root = {
  opentelemetry: {
    proto: {
      collector: {
        trace: {
          v1: {
            ExportTraceServiceRequest: ProtoType;
            ExportTraceServiceResponse: ProtoType;
          };
        };
      };
      trace: { v1: { TracesData: ProtoType } };
    };
  };
};
interface ProtoType {
  decode(buf: Uint8Array): unknown;
  toObject(message: unknown, options: Record<string, unknown>): JsonObject;
  fromObject(object: unknown): unknown;
  encode(message: unknown): { finish(): Uint8Array };
}

const root = ((otlpRoot as unknown as { default?: Root }).default ?? otlpRoot) as unknown as Root;
const v1 = root.opentelemetry.proto.collector.trace.v1;

export type OtlpEncoding = "protobuf" | "json";

/** Which encoding a request uses, from its Content-Type. */
export function otlpEncodingOf(contentType: string | null): OtlpEncoding {
  const type = (contentType ?? "").split(";")[0].trim().toLowerCase();
  if (
    type === "application/x-protobuf" ||
    type === "application/protobuf" ||
    type === "application/octet-stream" ||
    type === ""
  )
    return "protobuf";
  if (type === "application/json") return "json";
  throw new UnsupportedMediaTypeError(
    `Content-Type ${type} is not supported; send application/x-protobuf or application/json`,
  );
}

/**
 * An ExportTraceServiceRequest (or the legacy TracesData, same wire layout) as a plain object with
 * the protobuf JSON mapping's field names: ids in hex, 64-bit integers as decimal strings.
 */
export function decodeOtlp(body: Buffer, encoding: OtlpEncoding): JsonObject {
  // Depth is refused on the raw bytes first: decoding a body nested thousands of levels deep
  // (recursively, in protobufjs) blocks the event loop before any check on the result could run.
  if ((encoding === "json" ? scanJsonDepth(body) : scanOtlpProtobufDepth(body)).tooDeep) throw tooDeep("The OTLP body");
  if (encoding === "json") {
    let parsed: unknown;
    try {
      parsed = body.length === 0 ? {} : JSON.parse(body.toString("utf8"));
    } catch (error) {
      throw new BadRequestError(`OTLP JSON body is not valid JSON: ${(error as Error).message}`, "invalid_otlp");
    }
    if (!isObject(parsed))
      throw new BadRequestError("OTLP JSON body must be an ExportTraceServiceRequest object", "invalid_otlp");
    assertJsonDepth(parsed, "The OTLP body");
    return parsed;
  }
  let message: unknown;
  try {
    message = v1.ExportTraceServiceRequest.decode(body);
  } catch (error) {
    if (error instanceof RangeError) throw tooDeep("The OTLP body");
    throw new BadRequestError(
      `OTLP protobuf body does not decode as ExportTraceServiceRequest: ${(error as Error).message}`,
      "invalid_otlp",
    );
  }
  // protobufjs decodes nested values recursively: a stack overflow is a message nested too deep.
  let object: unknown;
  try {
    object = v1.ExportTraceServiceRequest.toObject(message, {
      longs: String,
      bytes: Array,
      enums: Number,
      defaults: false,
      arrays: true,
    });
  } catch (error) {
    if (error instanceof RangeError) throw tooDeep("The OTLP body");
    throw error;
  }
  assertJsonDepth(object, "The OTLP body");
  return hexIds(object) as JsonObject;
}

/** Byte arrays of the decoded message (ids) become hex strings, as in OTLP JSON. */
function hexIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(hexIds);
  if (!isObject(value)) return value;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] =
      (k === "traceId" || k === "spanId" || k === "parentSpanId") && Array.isArray(v)
        ? Buffer.from(v as number[]).toString("hex")
        : k === "bytesValue" && Array.isArray(v)
          ? Buffer.from(v as number[]).toString("base64")
          : hexIds(v);
  }
  return out;
}

/** ExportTraceServiceResponse in the request's encoding, with `partial_success` when spans were rejected. */
export function encodeOtlpResponse(
  encoding: OtlpEncoding,
  rejected: number,
  message: string,
): { body: Uint8Array | string; contentType: string } {
  const partial = rejected > 0 ? { rejectedSpans: String(rejected), errorMessage: message } : undefined;
  if (encoding === "json") {
    return { body: JSON.stringify(partial ? { partialSuccess: partial } : {}), contentType: "application/json" };
  }
  const msg = v1.ExportTraceServiceResponse.fromObject(partial ? { partialSuccess: partial } : {});
  return { body: v1.ExportTraceServiceResponse.encode(msg).finish(), contentType: "application/x-protobuf" };
}

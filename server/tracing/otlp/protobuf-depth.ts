import { MAX_JSON_DEPTH, type DepthScan } from "@/server/core/json-depth";

/**
 * The message-valued fields of the OTLP trace messages (field number -> message type, repeated),
 * as the OpenTelemetry SDK's generated decoder reads them (`opentelemetry/proto/{collector/trace,
 * trace,common,resource}/v1`). Other length-delimited fields (strings, bytes) hold no messages.
 */
const MESSAGE_FIELDS: Record<string, Record<number, readonly [type: string, repeated: boolean]>> = {
  ExportTraceServiceRequest: { 1: ["ResourceSpans", true] },
  ResourceSpans: { 1: ["Resource", false], 2: ["ScopeSpans", true] },
  Resource: { 1: ["KeyValue", true], 3: ["EntityRef", true] },
  ScopeSpans: { 1: ["InstrumentationScope", false], 2: ["Span", true] },
  InstrumentationScope: { 3: ["KeyValue", true] },
  Span: { 9: ["KeyValue", true], 11: ["Event", true], 13: ["Link", true], 15: ["Status", false] },
  Event: { 3: ["KeyValue", true] },
  Link: { 4: ["KeyValue", true] },
  KeyValue: { 2: ["AnyValue", false] },
  AnyValue: { 5: ["ArrayValue", false], 6: ["KeyValueList", false] },
  ArrayValue: { 1: ["AnyValue", true] },
  KeyValueList: { 1: ["KeyValue", true] },
  EntityRef: {},
  Status: {},
};

/**
 * How deeply an OTLP protobuf ExportTraceServiceRequest nests, read off the wire format without
 * decoding it: one pass over tags and lengths with an explicit stack, no allocation per field. The
 * depth is counted as the decoded object's JSON nesting (a message one level, a repeated field
 * one more for its array), which the decoded object then has at least, so this never refuses a
 * body the full check would accept. It stops at the first field past `max`. Bytes that are not a
 * well-formed message end the scan without a verdict: the decoder reports them.
 */
export function scanOtlpProtobufDepth(body: Uint8Array, max = MAX_JSON_DEPTH): DepthScan {
  const frames: Array<{ type: string; end: number; depth: number }> = [
    { type: "ExportTraceServiceRequest", end: body.length, depth: 1 },
  ];
  let pos = 0;
  const varint = (): number => {
    let value = 0;
    for (let shift = 0; shift < 70; shift += 7) {
      if (pos >= body.length) return -1;
      const byte = body[pos++];
      // Lengths and tags fit in 32 bits; larger varints (int64 values) are only skipped.
      if (shift < 35) value += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return value;
    }
    return -1;
  };
  const malformed = { tooDeep: false, bytesRead: body.length };
  while (frames.length) {
    const frame = frames[frames.length - 1];
    if (pos >= frame.end) {
      if (pos > frame.end) return malformed;
      frames.pop();
      continue;
    }
    const key = varint();
    if (key < 0) return malformed;
    const wire = key % 8;
    if (wire === 0) {
      if (varint() < 0) return malformed;
    } else if (wire === 1) pos += 8;
    else if (wire === 5) pos += 4;
    else if (wire === 2) {
      const length = varint();
      if (length < 0 || pos + length > frame.end) return malformed;
      const child = MESSAGE_FIELDS[frame.type]?.[Math.floor(key / 8)];
      if (child) {
        const depth = frame.depth + (child[1] ? 2 : 1);
        if (depth > max) return { tooDeep: true, bytesRead: pos };
        frames.push({ type: child[0], end: pos + length, depth });
      } else pos += length;
    } else return malformed;
  }
  return { tooDeep: false, bytesRead: pos };
}

/**
 * OTLP bodies whose one span attribute nests `levels` kvlist values deep, in both encodings, for
 * the depth attack (a body that must be refused before it is decoded). The protobuf bytes are
 * written by hand, sizes first from the inside out, then the prefixes from the outside in: an
 * encoder would recurse as deep as the value, and concatenating per level costs quadratic time.
 */
export function deepOtlpProtobuf(levels: number): Buffer {
  const leaf = field(1, Buffer.from("leaf"));
  // Per level, from the innermost: KeyValue{key: "k", value: AnyValue}, KeyValueList{values: [kv]},
  // AnyValue{kvlist_value}. sizes[i] is the AnyValue at level i (0 = the leaf).
  const sizes = [leaf.length];
  for (let i = 1; i <= levels; i++) {
    const keyValue = 3 + lengthOf(2, sizes[i - 1]);
    sizes.push(lengthOf(6, lengthOf(1, keyValue)));
  }
  const span = Buffer.concat([
    field(1, Buffer.alloc(16, 1)),
    field(2, Buffer.alloc(8, 2)),
    field(5, Buffer.from("deep")),
  ]);
  const attribute = 3 + lengthOf(2, sizes[levels]);
  const spanSize = span.length + lengthOf(9, attribute);
  const scopeSpans = lengthOf(2, spanSize);
  const resourceSpans = lengthOf(2, scopeSpans);
  const out: number[] = [];
  const prefix = (tag: number, size: number) => {
    out.push((tag << 3) | 2);
    varint(out, size);
  };
  prefix(1, resourceSpans);
  prefix(2, scopeSpans);
  prefix(2, spanSize);
  out.push(...span);
  prefix(9, attribute);
  out.push(0x0a, 1, 0x61); // key "a"
  prefix(2, sizes[levels]);
  for (let i = levels; i >= 1; i--) {
    const keyValue = 3 + lengthOf(2, sizes[i - 1]);
    prefix(6, lengthOf(1, keyValue));
    prefix(1, keyValue);
    out.push(0x0a, 1, 0x6b);
    prefix(2, sizes[i - 1]);
  }
  out.push(...leaf);
  return Buffer.from(out);
}

/** The same body in OTLP JSON, built as text (JSON.stringify would recurse as deep). */
export function deepOtlpJson(levels: number): string {
  const open = '{"kvlistValue":{"values":[{"key":"k","value":';
  const close = "}]}}";
  const value = open.repeat(levels) + '{"stringValue":"leaf"}' + close.repeat(levels);
  return (
    '{"resourceSpans":[{"scopeSpans":[{"spans":[{"traceId":"01010101010101010101010101010101",' +
    `"spanId":"0202020202020202","name":"deep","startTimeUnixNano":"1","attributes":[{"key":"a","value":${value}}]}]}]}]}`
  );
}

function field(tag: number, bytes: Buffer): Buffer {
  const head: number[] = [(tag << 3) | 2];
  varint(head, bytes.length);
  return Buffer.concat([Buffer.from(head), bytes]);
}

/** Bytes of a length-delimited field (tag, length, payload) with a payload of `size` bytes. */
function lengthOf(tag: number, size: number): number {
  return varintSize(tag << 3) + varintSize(size) + size;
}

function varintSize(value: number): number {
  let n = 1;
  while (value >= 0x80) {
    value = Math.floor(value / 128);
    n++;
  }
  return n;
}

function varint(out: number[], value: number): void {
  while (value >= 0x80) {
    out.push((value & 0x7f) | 0x80);
    value = Math.floor(value / 128);
  }
  out.push(value);
}

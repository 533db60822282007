/** Cuts text to `maxBytes` of UTF-8 without splitting a character, saying how much was left out. */
export function capResult(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text, "utf8");
  if (bytes.byteLength <= maxBytes) return text;
  let end = maxBytes;
  // Back up over continuation bytes (10xxxxxx) so the cut lands on a character start.
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--;
  return `${bytes.subarray(0, end).toString("utf8")}\n[result cut: ${bytes.byteLength - end} more bytes (TOOL_RESULT_MAX_BYTES)]`;
}

/** A tool's output as the model gets it: JSON text cut to `maxBytes`, or the output itself when it fits. */
export function capOutput(output: unknown, maxBytes: number): unknown {
  const text = JSON.stringify(output ?? null);
  return Buffer.byteLength(text) > maxBytes ? capResult(text, maxBytes) : output;
}

import type { NativeEvent } from "./native-event";

/** One native wire frame: `{type, data}` where data holds the event's own fields. */
export interface NativeFrame {
  type: NativeEvent["type"];
  data: Record<string, unknown>;
}

export function toNativeFrame(event: NativeEvent): NativeFrame {
  const { type, ...data } = event;
  return { type, data };
}

/** Native events to native frames (SSE `data:` lines or NDJSON lines downstream). */
export function nativeFrameStream(): TransformStream<NativeEvent, NativeFrame> {
  return new TransformStream({
    transform(event, controller) {
      controller.enqueue(toNativeFrame(event));
    },
  });
}

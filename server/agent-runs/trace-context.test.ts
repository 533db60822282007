import { expect, it } from "vitest";
import { traceContext } from "./trace-context";

it("continues a valid traceparent and starts a new trace otherwise", () => {
  const continued = traceContext("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
  expect(continued).toMatchObject({ traceId: "4bf92f3577b34da6a3ce929d0e0e4736", parentSpanId: "00f067aa0ba902b7" });
  expect(continued.spanId).toMatch(/^[0-9a-f]{16}$/);
  for (const bad of [null, "garbage", "00-00000000000000000000000000000000-00f067aa0ba902b7-01"]) {
    const fresh = traceContext(bad);
    expect(fresh.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(fresh.traceId).not.toBe("0".repeat(32));
    expect(fresh.parentSpanId).toBeUndefined();
  }
});

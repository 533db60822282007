import { describe, expect, it } from "vitest";
import { assertSameOrigin } from "./same-origin";

const headers = (h: Record<string, string>) => new Headers(h);

describe("assertSameOrigin", () => {
  it("accepts a request from the Host it was sent to", () => {
    expect(() =>
      assertSameOrigin(headers({ host: "127.0.0.1:3000", origin: "http://127.0.0.1:3000" }), undefined),
    ).not.toThrow();
  });

  it("refuses another origin, naming it", () => {
    expect(() =>
      assertSameOrigin(headers({ host: "127.0.0.1:3000", origin: "https://evil.example" }), undefined),
    ).toThrow(/Origin https:\/\/evil\.example is not this app's origin \(127\.0\.0\.1:3000\)/);
  });

  it("refuses a sandboxed page's null origin and a malformed one", () => {
    expect(() => assertSameOrigin(headers({ host: "a:1", origin: "null" }), undefined)).toThrow(/Cross-site/);
    expect(() => assertSameOrigin(headers({ host: "a:1", origin: "::" }), undefined)).toThrow(/Cross-site/);
  });

  it("compares with PUBLIC_URL when set, not with the Host header", () => {
    const h = headers({ host: "internal:3000", origin: "https://agents.example.com" });
    expect(() => assertSameOrigin(h, "https://agents.example.com")).not.toThrow();
    expect(() =>
      assertSameOrigin(
        headers({ host: "internal:3000", origin: "http://internal:3000" }),
        "https://agents.example.com",
      ),
    ).toThrow();
  });

  it("uses X-Forwarded-Host behind a proxy", () => {
    const h = headers({
      host: "app:3000",
      "x-forwarded-host": "agents.example.com",
      origin: "https://agents.example.com",
    });
    expect(() => assertSameOrigin(h, undefined)).not.toThrow();
  });

  it("falls back to Sec-Fetch-Site when Origin is absent", () => {
    expect(() => assertSameOrigin(headers({ host: "a:1", "sec-fetch-site": "same-origin" }), undefined)).not.toThrow();
    expect(() => assertSameOrigin(headers({ host: "a:1", "sec-fetch-site": "cross-site" }), undefined)).toThrow(
      /cross-site/,
    );
    expect(() => assertSameOrigin(headers({ host: "a:1", "sec-fetch-site": "same-site" }), undefined)).toThrow(
      /same-site/,
    );
  });

  it("lets non-browser clients (neither header) through", () => {
    expect(() => assertSameOrigin(headers({ host: "a:1" }), undefined)).not.toThrow();
  });
});

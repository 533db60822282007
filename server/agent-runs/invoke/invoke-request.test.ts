import { expect, it } from "vitest";
import { withRequestHeaders, type InvokeRequest } from "./invoke-request";

const headers = (entries: Record<string, string>) => new Headers(entries);

it("fills the session id and flags.trim from the headers where the body is silent", () => {
  const filled = withRequestHeaders({}, headers({ "x-svc-session-id": "chat:7", "x-svc-messages-transcript": "last" }));
  expect(filled).toMatchObject({ session_id: "chat:7", flags: { trim: true } });
  expect(withRequestHeaders({}, headers({ "x-svc-messages-transcript": "full" })).flags?.trim).toBe(false);
  expect(withRequestHeaders({}, headers({})).session_id).toBeUndefined();
});

it("lets the body win over the headers", () => {
  const body: InvokeRequest = { session_id: "mine", flags: { trim: false } };
  const kept = withRequestHeaders(body, headers({ "x-svc-session-id": "theirs", "x-svc-messages-transcript": "last" }));
  expect(kept).toMatchObject({ session_id: "mine", flags: { trim: false } });
});

it("refuses a header value it cannot honour, and forcing a session with 406", () => {
  expect(() => withRequestHeaders({}, headers({ "x-svc-messages-transcript": "first" }))).toThrow(
    expect.objectContaining({ status: 400, message: expect.stringContaining('"last" or "full"') }),
  );
  expect(() => withRequestHeaders({}, headers({ "x-svc-session-id": "not a session" }))).toThrow(
    expect.objectContaining({ status: 400 }),
  );
  expect(() => withRequestHeaders({}, headers({ "x-svc-session-control": "force" }))).toThrow(
    expect.objectContaining({ status: 406, code: "force_not_supported" }),
  );
  expect(() => withRequestHeaders({ flags: { force: true } }, headers({}))).toThrow(
    expect.objectContaining({ status: 406 }),
  );
  expect(
    withRequestHeaders({ flags: { force: false } }, headers({ "x-svc-session-control": "force" })).flags?.force,
  ).toBe(false);
});

import { describe, expect, it } from "vitest";
import { describeLoadError } from "@/components/ui/load-error";

const trpcError = (httpStatus: number, message: string) => Object.assign(new Error(message), { data: { httpStatus } });

describe("describeLoadError", () => {
  it("never quotes validation text, and offers no retry for a bad address", () => {
    const text = describeLoadError(trpcError(400, "Request body is invalid: id: Invalid UUID"));
    expect(text.message).not.toMatch(/UUID|Request body/);
    expect(text.message).toMatch(/address/);
    expect(text).toMatchObject({ retry: false, notFound: true });
    expect(describeLoadError(trpcError(422, "id: Invalid")).retry).toBe(false);
  });

  it("says what a 404 means, without retry", () => {
    expect(describeLoadError(trpcError(404, "workflow_ref id 1 does not exist"))).toEqual({
      message: "It does not exist, or it is not in the project you are working in.",
      retry: false,
      notFound: true,
    });
  });

  it("passes through conflicts and other messages written for people", () => {
    expect(describeLoadError(trpcError(409, 'An agent with slug "a" already exists'))).toMatchObject({
      message: 'An agent with slug "a" already exists',
      retry: false,
    });
  });

  it("offers a retry only for server and network failures", () => {
    expect(describeLoadError(trpcError(500, "Internal server error; the server log has the details"))).toMatchObject({
      retry: true,
    });
    expect(describeLoadError(trpcError(503, "busy")).retry).toBe(true);
    expect(describeLoadError(new TypeError("Failed to fetch"))).toMatchObject({
      retry: true,
      message: expect.stringMatching(/reach the server/),
    });
    expect(describeLoadError(trpcError(401, "no session")).retry).toBe(false);
    expect(describeLoadError(trpcError(403, "viewer")).retry).toBe(false);
  });
});

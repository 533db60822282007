import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BadRequestError, ConflictError } from "@/server/core/errors";
import { errorReply } from "@/server/http/error-response";
import { errorText } from "@/shared/error-text";
import { createTestApp, type TestApp } from "../helpers/test-app";

/**
 * One error body for two kinds of client: `detail` is the text where the reference answers text
 * (its clients test `"version" in detail`), and `{message, ...}` where the reference answers an
 * object (its clients read `detail.message`); `code` and the fields stay at the top level.
 */
const silent = pino({ level: "silent" });
const bodyOf = (error: unknown) => JSON.parse(errorReply(error, "req-1", silent).body ?? "{}");

describe("error bodies (unit)", () => {
  it("keeps detail as text unless the error is marked structured", () => {
    expect(bodyOf(new BadRequestError("plain words", "bad_request"))).toEqual({
      detail: "plain words",
      code: "bad_request",
    });
    const marked = new ConflictError("taken", "slug_taken").structured({ conflict: { slug: "a" } });
    expect(bodyOf(marked)).toEqual({
      detail: { message: "taken", code: "slug_taken", conflict: { slug: "a" } },
      code: "slug_taken",
      conflict: { slug: "a" },
    });
  });

  it("answers an unexpected error as the reference's 500, an object with the message and no internals", () => {
    const reply = errorReply(new Error("SELECT secret FROM x"), "req-9", silent);
    expect(reply.status).toBe(500);
    const body = JSON.parse(reply.body ?? "{}");
    expect(body).toEqual({
      detail: {
        message: "Internal server error; quote request id req-9 when reporting it",
        code: "internal_error",
        request_id: "req-9",
      },
      code: "internal_error",
    });
  });

  it("errorText reads both forms, as every client of ours does", () => {
    expect(errorText({ detail: "words" })).toBe("words");
    expect(errorText({ detail: { message: "words", run_id: "r" } })).toBe("words");
    expect(errorText({ detail: [{ msg: "x" }] })).toBeUndefined();
    expect(errorText("nope")).toBeUndefined();
  });
});

describe("error bodies over HTTP", () => {
  let t: TestApp;
  let key: string;
  beforeAll(async () => {
    t = await createTestApp();
    key = (await t.newProject()).key;
  });
  afterAll(() => t.close());

  it("a version-only retrieve is a 400 whose detail is text naming version and variant_ref", async () => {
    for (const domain of ["applications", "testsets", "queries"]) {
      const one = domain.slice(0, -1).replace(/ie$/, "y");
      const res = await t.call("POST", `/api/${domain}/revisions/retrieve`, {
        key,
        body: { [`${one}_revision_ref`]: { version: "1" } },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(typeof res.body.detail).toBe("string");
      expect(res.body.detail).toContain("version");
      expect(res.body.detail).toContain("variant_ref");
    }
  });

  it("default-queue refusals carry the reference's object detail with the queue id", async () => {
    const run = (await t.call("POST", "/api/evaluations/runs/", { key, body: { runs: [{ name: "r" }] } })).body.runs[0];
    const created = await t.call("POST", "/api/evaluations/queues/", {
      key,
      body: { queues: [{ run_id: run.id, flags: { is_default: true } }] },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const queueId = created.body.queues[0].id;

    const demoted = await t.call("PATCH", `/api/evaluations/queues/${queueId}`, {
      key,
      body: { queue: { id: queueId, flags: { is_default: false } } },
    });
    expect(demoted.status).toBe(409);
    expect(demoted.body.detail).toMatchObject({ message: expect.stringContaining("default"), queue_id: queueId });
    expect(demoted.body.code).toBe("default_queue_demotion");

    const deleted = await t.call("DELETE", `/api/evaluations/queues/${queueId}`, { key });
    expect(deleted.status).toBe(409);
    expect(deleted.body.detail).toMatchObject({ message: expect.stringContaining("default"), queue_ids: [queueId] });

    const second = await t.call("POST", "/api/evaluations/queues/", {
      key,
      body: { queues: [{ run_id: run.id, flags: { is_default: true } }] },
    });
    expect(second.status).toBe(409);
    expect(second.body.detail).toMatchObject({ message: expect.stringContaining("at most one"), queue_id: queueId });
  });
});

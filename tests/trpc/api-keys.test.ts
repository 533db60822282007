import { PROJECT_SETUPS } from "@/server/boot";
import { TRPCError } from "@trpc/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureDefaultAccount, type Principal } from "@/server/auth";
import { createCaller, createContextFrom } from "@/server/trpc";
import { createTestApp, type TestApp } from "../helpers/test-app";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

function callerFor(principal?: Principal) {
  return createCaller(createContextFrom(t.context, { principal }));
}

async function rejection(promise: Promise<unknown>): Promise<TRPCError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TRPCError);
  return error as TRPCError;
}

describe("tRPC apiKeys", () => {
  it("creates a key whose secret is returned once and works on the REST API", async () => {
    const { projectId, userId } = await t.newProject();
    const caller = callerFor({ projectId, userId, role: "owner" });

    const created = await caller.apiKeys.create({ name: "playground" });
    expect(created).toMatchObject({ name: "playground", user_id: userId });
    expect(created.key).toMatch(/^sk_/);
    expect(created.key!.startsWith(created.prefix)).toBe(true);
    expect(created.revoked_at).toBeUndefined();

    // Using the key on the REST API first also records its last use, which the listing then shows.
    const rest = await t.call("GET", "/api/keys", { key: created.key });
    expect(rest.status).toBe(200);

    const listed = await caller.apiKeys.list();
    expect(listed.map((k) => k.id)).toContain(created.id);
    expect(listed.every((k) => k.key === undefined)).toBe(true);
    expect(JSON.stringify(listed)).not.toContain(created.key);
    const mine = listed.find((k) => k.id === created.id);
    expect(mine?.last_used_at).toBeDefined();
    // Same wire shape as REST, bar the refreshed last use.
    const fromRest = rest.body.api_keys.find((k: { id: string }) => k.id === created.id);
    expect({ ...mine, last_used_at: undefined }).toEqual({ ...fromRest, last_used_at: undefined });
  });

  it("creates an unnamed key when the name is omitted", async () => {
    const { projectId, userId } = await t.newProject();
    const created = await callerFor({ projectId, userId, role: "owner" }).apiKeys.create({});
    expect(created.name).toBeUndefined();
    expect(created.key).toMatch(/^sk_/);
  });

  it("revokes a key, after which the REST API rejects it; revoking again keeps the first time", async () => {
    const { projectId, userId } = await t.newProject();
    const caller = callerFor({ projectId, userId, role: "owner" });
    const created = await caller.apiKeys.create({ name: "short-lived" });

    const revoked = await caller.apiKeys.revoke({ id: created.id });
    expect(revoked.id).toBe(created.id);
    expect(Date.parse(revoked.revoked_at!)).toBeGreaterThan(Date.now() - 60_000);
    expect(revoked.key).toBeUndefined();

    const again = await caller.apiKeys.revoke({ id: created.id });
    expect(again.revoked_at).toBe(revoked.revoked_at);

    const listed = await caller.apiKeys.list();
    expect(listed.find((k) => k.id === created.id)?.revoked_at).toBe(revoked.revoked_at);

    const rest = await t.call("GET", "/api/keys", { key: created.key });
    expect(rest.status).toBe(401);
    expect(rest.body.code).toBe("revoked_api_key");
  });

  it("scopes keys to the caller's project and maps AppError to a tRPC code with the message kept", async () => {
    const a = await t.newProject("a");
    const b = await t.newProject("b");
    const key = await callerFor(a).apiKeys.create({ name: "a's key" });

    const listedByB = await callerFor(b).apiKeys.list();
    expect(listedByB.map((k) => k.id)).not.toContain(key.id);

    const error = await rejection(callerFor(b).apiKeys.revoke({ id: key.id }));
    expect(error.code).toBe("NOT_FOUND");
    expect(error.message).toBe(`API key ${key.id} not found in this project`);

    const stillActive = (await callerFor(a).apiKeys.list()).find((k) => k.id === key.id);
    expect(stillActive?.revoked_at).toBeUndefined();
  });

  it("rejects invalid input as a validation error", async () => {
    const { projectId, userId } = await t.newProject();
    const caller = callerFor({ projectId, userId, role: "owner" });

    const blank = await rejection(caller.apiKeys.create({ name: "   " }));
    expect(blank.code).toBe("UNPROCESSABLE_CONTENT");
    expect(blank.message).toMatch(/^Request body is invalid: name:/);

    const tooLong = await rejection(caller.apiKeys.create({ name: "x".repeat(101) }));
    expect(tooLong.code).toBe("UNPROCESSABLE_CONTENT");

    const badId = await rejection(caller.apiKeys.revoke({ id: "not-a-uuid" }));
    expect(badId.code).toBe("UNPROCESSABLE_CONTENT");
    expect(badId.message).toMatch(/id:/);
  });
});

describe("without a signed-in visitor", () => {
  it("is refused, even once the default project exists", async () => {
    expect((await rejection(callerFor().apiKeys.list())).code).toBe("UNAUTHORIZED");
    expect(await ensureDefaultAccount(t.database.db, PROJECT_SETUPS)).not.toBeNull();
    expect((await rejection(callerFor().apiKeys.list())).code).toBe("UNAUTHORIZED");
    expect((await rejection(callerFor().apiKeys.create({ name: "nope" }))).code).toBe("UNAUTHORIZED");
  });
});

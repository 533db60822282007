import { PROJECT_SETUPS } from "@/server/boot";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureDefaultAccount } from "@/server/auth";
import { rawQuery } from "@/server/db";
import { createContextFrom } from "@/server/trpc/init";
import { createCaller } from "@/server/trpc/root";
import { serveOverHttp, type RunningServer } from "../helpers/http-server";
import { createTestApp, type TestApp } from "../helpers/test-app";
import { HttpClient } from "../helpers/http-client";

let t: TestApp;
let server: RunningServer;
let key: string;
let projectId: string;
let ownerId: string;
let keyId: string;
const OWNER = { name: "Ada Owner", email: "ada-audit@example.com", password: "correct horse battery" };
const PROVIDER_KEY = "sk-ant-planted-audit-value-1234";
const WEBHOOK_SECRET = "whsec_planted_audit_secret_5678";

beforeAll(async () => {
  t = await createTestApp();
  const account = await ensureDefaultAccount(t.database.db, PROJECT_SETUPS);
  key = account!.secret;
  projectId = account!.project.id;
  ownerId = account!.user.id;
  keyId = account!.apiKey.id;
  server = await serveOverHttp(t);
});
afterAll(async () => {
  await server.close();
  await t.close();
});

async function entries(query = "") {
  const r = await t.call("GET", `/api/audit${query}`, { key });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.audit_entries as {
    id: string;
    action: string;
    actor: { type: string; user_id?: string; api_key_id?: string; label?: string };
    client_address?: string;
    target: { type: string; id?: string };
    before?: any;
    after?: any;
  }[];
}
const only = async (action: string, more = "") => {
  const found = await entries(`?action=${action}${more}`);
  expect(found, action).toHaveLength(1);
  return found[0];
};

describe("the audit log", () => {
  it("records each API key, secret, webhook and budget change once, with its actor and no secret", async () => {
    const created = await t.call("POST", "/api/keys", {
      key,
      body: { name: "ci", scopes: ["read"] },
      headers: { "x-forwarded-for": "203.0.113.9" },
    });
    expect(created.status).toBe(201);
    const newKey = created.body.api_key;
    expect((await t.call("POST", `/api/keys/${newKey.id}/revoke`, { key })).status).toBe(200);

    const secret = await t.call("POST", "/api/vault/v1/secrets/", {
      key,
      body: {
        header: { name: "Work Anthropic" },
        secret: { kind: "provider_key", data: { kind: "anthropic", provider: { key: PROVIDER_KEY } } },
      },
    });
    expect(secret.status).toBe(201);
    const secretId = secret.body.secret.id;
    expect(
      (
        await t.call("PUT", `/api/vault/v1/secrets/${secretId}`, {
          key,
          body: {
            header: { name: "Renamed" },
            secret: { kind: "provider_key", data: { kind: "anthropic", provider: { key: PROVIDER_KEY + "x" } } },
          },
        })
      ).status,
    ).toBe(200);
    expect((await t.call("DELETE", `/api/vault/v1/secrets/${secretId}`, { key })).status).toBeLessThan(300);

    const hook = await t.call("POST", "/api/webhooks/subscriptions/", {
      key,
      body: {
        subscription: {
          name: "hook",
          secret: WEBHOOK_SECRET,
          data: { url: "https://example.com/hook", headers: { "X-Token": "planted-header-value" } },
        },
      },
    });
    expect(hook.status, JSON.stringify(hook.body)).toBe(200);
    const hookId = hook.body.subscription.id;
    expect((await t.call("DELETE", `/api/webhooks/subscriptions/${hookId}`, { key })).status).toBeLessThan(300);

    const owner = createCaller(
      createContextFrom(t.context, { principal: { projectId, userId: ownerId, role: "owner" } }),
    );
    const budget = await owner.controls.budgets.create({
      name: "monthly",
      scope: "project",
      window: "month",
      time_zone: "UTC",
      limit_usd: 50,
      warn_percent: 80,
    });

    const keyCreated = await only("api_key.created", `&target_id=${newKey.id}`);
    expect(keyCreated.actor).toEqual({ type: "api_key", user_id: ownerId, api_key_id: keyId });
    expect(keyCreated.target).toEqual({ type: "api_key", id: newKey.id });
    expect(keyCreated.after).toMatchObject({ name: "ci", scopes: ["read"], prefix: newKey.prefix });
    const revoked = await only("api_key.revoked");
    expect(revoked.before.revoked_at).toBeNull();
    expect(revoked.after.revoked_at).toBeDefined();

    expect((await only("secret.created")).target).toEqual({ type: "provider_connection", id: secretId });
    const updated = await only("secret.updated");
    expect(updated.before.name).toBe("Work Anthropic");
    expect(updated.after).toMatchObject({ name: "Renamed", credential_changed: true });
    await only("secret.deleted");
    expect((await only("webhook.created")).after).toMatchObject({ name: "hook", header_names: ["X-Token"] });
    await only("webhook.deleted");
    const budgetEntry = await only("budget.created");
    expect(budgetEntry.actor).toEqual({ type: "user", user_id: ownerId });
    expect(budgetEntry.target.id).toBe(budget.id);

    const all = JSON.stringify(await entries("?limit=1000"));
    for (const planted of [PROVIDER_KEY, WEBHOOK_SECRET, "planted-header-value", newKey.key.slice(11)]) {
      expect(all).not.toContain(planted);
    }
    const dump = await rawQuery<{ text: string }>(t.context.db, "select audit_log::text as text from audit_log", []);
    for (const row of dump) {
      for (const planted of [PROVIDER_KEY, WEBHOOK_SECRET, "planted-header-value"])
        expect(row.text).not.toContain(planted);
    }
  });

  it("records sign-ins, failed and succeeded, and member changes with the client's address", async () => {
    const ownerBrowser = new HttpClient(server.origin);
    expect((await ownerBrowser.send("POST", "/api/accounts/owner", { body: OWNER })).status).toBe(201);
    const stranger = new HttpClient(server.origin);
    const wrong = await stranger.send("POST", "/api/auth/sign-in/email", {
      body: { email: OWNER.email, password: "wrong password!" },
    });
    expect(wrong.status).toBe(401);
    const failed = await only("sign_in.failed");
    expect(failed.actor).toEqual({ type: "anonymous", label: OWNER.email });
    expect(failed.target).toEqual({ type: "user", id: ownerId });
    expect(failed.client_address).toBe("127.0.0.1");
    expect(JSON.stringify(failed)).not.toContain("wrong password");
    const right = await stranger.send("POST", "/api/auth/sign-in/email", {
      body: { email: OWNER.email, password: OWNER.password },
    });
    expect(right.status).toBe(200);
    expect((await only("sign_in.succeeded")).actor).toMatchObject({ type: "user", user_id: ownerId });

    const invite = await ownerBrowser.mutate("members.invite", { role: "member" });
    expect(invite.status).toBe(200);
    const inviteEntry = await only("invite.created");
    expect(JSON.stringify(inviteEntry)).not.toContain(invite.data.token);
    const person = new HttpClient(server.origin);
    const joined = await person.send("POST", "/api/accounts/sign-up", {
      body: {
        name: "Bob",
        email: "bob-audit@example.com",
        password: "another long password",
        invite_token: invite.data.token,
      },
    });
    expect(joined.status).toBe(201);
    const bobId = joined.body.user_id as string;
    expect((await only("member.joined")).actor).toMatchObject({ type: "user", user_id: bobId });
    expect((await ownerBrowser.mutate("members.setRole", { userId: bobId, role: "viewer" })).status).toBe(200);
    const roleChanged = await only("member.role_changed");
    expect(roleChanged).toMatchObject({ before: { role: "member" }, after: { role: "viewer" } });
    expect(roleChanged.actor).toEqual({ type: "user", user_id: ownerId });
    expect((await ownerBrowser.mutate("members.remove", { userId: bobId })).status).toBe(200);
    await only("member.removed");
  });

  it("pages, filters by actor, exports JSON lines, and shows each project only its own", async () => {
    const first = await t.call("GET", "/api/audit?limit=2", { key });
    expect(first.body.count).toBe(2);
    const second = await t.call("GET", `/api/audit?limit=2&next=${first.body.windowing.next}`, { key });
    expect(second.body.audit_entries[0].id < first.body.audit_entries[1].id).toBe(true);
    const byKey = await entries(`?actor=${keyId}`);
    expect(byKey.length).toBeGreaterThan(0);
    expect(byKey.every((e) => e.actor.api_key_id === keyId)).toBe(true);

    const exported = await t.call("GET", "/api/audit/export", { key });
    expect(exported.status).toBe(200);
    expect(exported.headers.get("content-type")).toBe("application/x-ndjson");
    const lines = (exported.body as string)
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.id)).toEqual((await entries("?limit=1000")).map((e) => e.id));

    const member = await t.newProject("not-owner");
    const other = await t.call("GET", "/api/audit", { key: member.key });
    // Only its own key's creation: nothing of the first project.
    expect(other.body.audit_entries.map((e: { action: string }) => e.action)).toEqual(["api_key.created"]);
  });

  it("Settings' router pages the same log for owners and refuses everyone else", async () => {
    const as = (role: "owner" | "viewer") =>
      createCaller(createContextFrom(t.context, { principal: { projectId, userId: ownerId, role } }));
    const first = await as("owner").audit.list({ limit: 3 });
    expect(first.entries).toHaveLength(3);
    const second = await as("owner").audit.list({ limit: 3, cursor: first.next });
    expect(second.entries[0].id < first.entries[2].id).toBe(true);
    await expect(as("viewer").audit.list({})).rejects.toThrow(/owner/);
  });

  it("is append-only in the database: UPDATE, DELETE and TRUNCATE are refused", async () => {
    for (const statement of ["update audit_log set action = 'x'", "delete from audit_log", "truncate audit_log"]) {
      await expect(rawQuery(t.context.db, statement, [])).rejects.toThrow(/append-only/);
    }
    expect((await entries("?limit=1000")).length).toBeGreaterThan(10);
  });
});

import { PROJECT_SETUPS } from "@/server/boot";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureDefaultAccount } from "@/server/auth";
import { serveOverHttp, type RunningServer } from "../helpers/http-server";
import { createTestApp, type TestApp } from "../helpers/test-app";
import { HttpClient } from "../helpers/http-client";

let t: TestApp;
let server: RunningServer;
let printedKey: string;
let defaultUserId: string;
const OWNER = { name: "Ada Owner", email: "ada@example.com", password: "correct horse battery" };

beforeAll(async () => {
  t = await createTestApp();
  const account = await ensureDefaultAccount(t.database.db, PROJECT_SETUPS);
  printedKey = account!.secret;
  defaultUserId = account!.user.id;
  server = await serveOverHttp(t);
});
afterAll(async () => {
  await server.close();
  await t.close();
});

const browser = () => new HttpClient(server.origin);

async function signUpWithInvite(owner: HttpClient, role: "member" | "viewer", email: string) {
  const invite = await owner.mutate("members.invite", { role });
  expect(invite.status).toBe(200);
  const person = browser();
  const created = await person.send("POST", "/api/accounts/sign-up", {
    body: { name: email.split("@")[0], email, password: "another long password", invite_token: invite.data.token },
  });
  expect(created.status).toBe(201);
  return { person, userId: created.body.user_id as string, token: invite.data.token as string };
}

describe("before anyone has an account", () => {
  it("the playground's procedures refuse every caller, mutations included", async () => {
    const anonymous = browser();
    expect((await anonymous.query("apiKeys.list")).status).toBe(401);
    const mint = await anonymous.mutate("apiKeys.create", { name: "stolen" });
    expect(mint.status).toBe(401);
    expect(mint.data).toBeUndefined();
    expect((await anonymous.query("catalog.harnesses")).status).toBe(401);
  });

  it("says the owner account is still to be made", async () => {
    const status = await browser().send("GET", "/api/accounts/status");
    expect(status.body).toEqual({ owner_exists: false, sign_up: "closed" });
  });

  it("refuses the owner sign-up from another site", async () => {
    const r = await browser().send("POST", "/api/accounts/owner", { body: OWNER, origin: "https://evil.example" });
    expect(r.status).toBe(403);
    expect(r.body.code).toBe("cross_site_request");
    expect((await browser().send("GET", "/api/accounts/status")).body.owner_exists).toBe(false);
  });

  it("validates the owner's details with messages naming the fields", async () => {
    const r = await browser().send("POST", "/api/accounts/owner", {
      body: { name: "", email: "nope", password: "short" },
    });
    expect(r.status).toBe(422);
    expect(r.body.errors.map((e: { path: string }) => e.path).sort()).toEqual(["email", "name", "password"]);
  });
});

describe("the owner account", () => {
  let owner: HttpClient;

  beforeAll(async () => {
    owner = browser();
    const created = await owner.send("POST", "/api/accounts/owner", { body: OWNER });
    expect(created.status).toBe(201);
    const cookie = created.setCookies.find((c) => c.includes("session_token"))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).not.toMatch(/Secure/i);
  });

  it("takes over the default user: the key printed at first start acts as the owner", async () => {
    const me = await owner.query("account.me");
    expect(me.data.user).toMatchObject({ id: defaultUserId, email: OWNER.email, name: OWNER.name });
    expect(me.data.projects).toEqual([expect.objectContaining({ projectName: "Default project", role: "owner" })]);
    const keys = await t.call("GET", "/api/keys", { key: printedKey });
    expect(keys.status).toBe(200);
    expect(keys.body.api_keys[0].user_id).toBe(defaultUserId);
  });

  it("is made once: a second owner sign-up is refused", async () => {
    const again = await browser().send("POST", "/api/accounts/owner", { body: { ...OWNER, email: "eve@example.com" } });
    expect(again.status).toBe(403);
    expect(again.body.code).toBe("owner_exists");
    expect((await browser().send("GET", "/api/accounts/status")).body.owner_exists).toBe(true);
  });

  it("logs out and in again through better-auth", async () => {
    const session = browser();
    const wrong = await session.send("POST", "/api/auth/sign-in/email", {
      body: { email: OWNER.email, password: "wrong password!" },
    });
    expect(wrong.status).toBe(401);
    const right = await session.send("POST", "/api/auth/sign-in/email", {
      body: { email: OWNER.email, password: OWNER.password },
    });
    expect(right.status).toBe(200);
    expect((await session.query("account.me")).status).toBe(200);
    expect((await session.send("POST", "/api/auth/sign-out", { body: {} })).status).toBe(200);
    expect((await session.query("account.me")).status).toBe(401);
  });

  it("refuses a cross-site sign-in and a cross-site sign-out", async () => {
    const r = await browser().send("POST", "/api/auth/sign-in/email", {
      body: { email: OWNER.email, password: OWNER.password },
      origin: "https://evil.example",
    });
    expect(r.status).toBe(403);
    expect(r.setCookies).toEqual([]);
  });

  describe("cross-site mutations with the owner's cookie", () => {
    it("a JSON POST from another origin is refused", async () => {
      const r = await owner.send("POST", "/api/trpc/apiKeys.create", {
        body: { json: { name: "csrf" } },
        origin: "https://evil.example",
      });
      expect(r.status).toBe(403);
      expect(r.body).toMatchObject({
        code: "cross_site_request",
        detail: expect.stringMatching(/Cross-site request refused/),
      });
    });

    it("a text/plain form post (no preflight) from another origin is refused", async () => {
      const r = await owner.send("POST", "/api/trpc/apiKeys.create", {
        rawBody: JSON.stringify({ json: { name: "csrf" } }),
        headers: { "content-type": "text/plain" },
        origin: "https://evil.example",
      });
      expect(r.status).toBe(403);
    });

    it("a request a browser marks cross-site without an Origin is refused", async () => {
      const r = await owner.mutate(
        "apiKeys.create",
        { name: "csrf" },
        { origin: null, headers: { "sec-fetch-site": "cross-site" } },
      );
      expect(r.status).toBe(403);
    });

    it("none of them created a key; the same request from the app's own origin does", async () => {
      const before = await owner.query("apiKeys.list");
      expect(before.data.map((k: { name: string }) => k.name)).not.toContain("csrf");
      const r = await owner.mutate("apiKeys.create", { name: "same-origin" });
      expect(r.status).toBe(200);
      expect(r.data.key).toMatch(/^sk_/);
    });
  });

  it("keeps sign-up closed without an invite", async () => {
    const r = await browser().send("POST", "/api/accounts/sign-up", {
      body: { name: "Eve", email: "eve@example.com", password: "a long password" },
    });
    expect(r.status).toBe(403);
    expect(r.body.code).toBe("sign_up_closed");
  });

  describe("invites and roles", () => {
    it("an invite is single use and names its project and role", async () => {
      const invite = await owner.mutate("members.invite", { role: "viewer" });
      const preview = await browser().send("GET", `/api/accounts/invites/${invite.data.token}`);
      expect(preview.body).toMatchObject({ project_name: "Default project", role: "viewer" });
      const first = await browser().send("POST", "/api/accounts/sign-up", {
        body: { name: "Vic", email: "vic@example.com", password: "viewer password", invite_token: invite.data.token },
      });
      expect(first.status).toBe(201);
      const second = await browser().send("POST", "/api/accounts/sign-up", {
        body: { name: "Mal", email: "mal@example.com", password: "viewer password", invite_token: invite.data.token },
      });
      expect(second.status).toBe(404);
      expect(second.body.code).toBe("invite_used");
      expect((await browser().send("GET", `/api/accounts/invites/${invite.data.token}`)).status).toBe(404);
    });

    it("a revoked invite cannot be used", async () => {
      const invite = await owner.mutate("members.invite", { role: "member" });
      expect((await owner.mutate("members.revokeInvite", { id: invite.data.id })).status).toBe(200);
      const r = await browser().send("POST", "/api/accounts/sign-up", {
        body: { name: "Late", email: "late@example.com", password: "a long password", invite_token: invite.data.token },
      });
      expect(r.body.code).toBe("invite_revoked");
    });

    it("a viewer reads but cannot commit, deploy, create agents or keys, or invite", async () => {
      const { person: viewer } = await signUpWithInvite(owner, "viewer", "viewer2@example.com");
      const me = await viewer.query("account.me");
      expect(me.data.current.role).toBe("viewer");
      expect((await viewer.query("agents.list", {})).status).toBe(200);
      for (const [procedure, input] of [
        ["agents.create", { name: "Nope", slug: "nope" }],
        ["apiKeys.create", { name: "nope" }],
        ["members.invite", { role: "owner" }],
      ] as const) {
        const r = await viewer.mutate(procedure, input);
        expect(r.status, procedure).toBe(403);
        expect(r.error?.data.app.code, procedure).toBe("insufficient_role");
      }
      const agent = await owner.mutate("agents.create", { name: "Shared", slug: "shared" });
      expect(agent.status).toBe(200);
      const variantId = agent.data.variant.id;
      const commit = await viewer.mutate("agents.commit", { variantId, template: {} });
      expect(commit.status).toBe(403);
      expect(commit.error?.message).toMatch(/needs a member or an owner of the project; your role is viewer/);
      const deploy = await viewer.mutate("agents.deploy", {
        revisionId: agent.data.revision.id,
        environment: "staging",
      });
      expect(deploy.status).toBe(403);
      expect(
        (await owner.mutate("agents.deploy", { revisionId: agent.data.revision.id, environment: "staging" })).status,
      ).toBe(200);
    });

    it("a key acts as its maker with the maker's role at the time of the call", async () => {
      const { person: member, userId } = await signUpWithInvite(owner, "member", "mem@example.com");
      const made = await member.mutate("apiKeys.create", { name: "ci" });
      expect(made.status).toBe(200);
      const key = made.data.key as string;
      const create = (slug: string) =>
        t.call("POST", "/api/workflows/", { key, body: { workflow: { slug, name: slug } } });
      expect((await create("by-member")).status).toBe(200);

      expect((await owner.mutate("members.setRole", { userId, role: "viewer" })).status).toBe(200);
      const refused = await create("by-viewer");
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe("insufficient_role");
      expect((await t.call("POST", "/api/workflows/query", { key, body: {} })).status).toBe(200);
      expect((await t.call("GET", "/api/keys", { key })).status).toBe(200);

      expect((await owner.mutate("members.remove", { userId })).status).toBe(200);
      const removed = await t.call("GET", "/api/keys", { key });
      expect(removed.status).toBe(401);
      expect(removed.body.code).toBe("member_removed");
    });

    it("the last owner can be neither demoted nor removed", async () => {
      const me = await owner.query("account.me");
      const { userId: second } = await signUpWithInvite(owner, "member", "second@example.com");
      expect((await owner.mutate("members.setRole", { userId: second, role: "owner" })).status).toBe(200);
      expect((await owner.mutate("members.setRole", { userId: second, role: "member" })).status).toBe(200);
      const alone = await t.call("GET", "/api/keys", { key: printedKey });
      expect(alone.status).toBe(200);
      const { person: other } = await signUpWithInvite(owner, "member", "third@example.com");
      expect((await other.mutate("members.setRole", { userId: me.data.user.id, role: "viewer" })).status).toBe(403);
    });
  });

  describe("the project comes from the session", () => {
    it("switching to a project the user is not in is refused; their own projects switch", async () => {
      const { person } = await signUpWithInvite(owner, "member", "switcher@example.com");
      const defaultProject = (await person.query("account.me")).data.current.projectId;
      const created = await person.mutate("account.createProject", { name: "Side project" });
      expect(created.status).toBe(200);
      const now = await person.query("account.me");
      expect(now.data.current).toMatchObject({ projectId: created.data.projectId, role: "owner" });
      const keysThere = await person.query("apiKeys.list");
      expect(keysThere.data).toEqual([]);

      const outsider = browser();
      await outsider.send("POST", "/api/auth/sign-in/email", {
        body: { email: OWNER.email, password: OWNER.password },
      });
      const refused = await outsider.mutate("account.switchProject", { projectId: created.data.projectId });
      expect(refused.status).toBe(404);
      expect((await outsider.query("account.me")).data.current.projectId).toBe(defaultProject);
    });
  });
});

describe("cookies behind https", () => {
  it("are Secure when PUBLIC_URL is https", async () => {
    const secure = await createTestApp({ publicUrl: "https://agents.example.com" });
    await ensureDefaultAccount(secure.database.db, PROJECT_SETUPS);
    const response = await secure.handle(
      new Request("https://agents.example.com/api/accounts/owner", {
        method: "POST",
        headers: {
          "content-type": "application/json",
          origin: "https://agents.example.com",
          host: "agents.example.com",
        },
        body: JSON.stringify(OWNER),
      }),
    );
    expect(response.status).toBe(201);
    expect(response.headers.getSetCookie().join("\n")).toMatch(/; Secure/i);
    await secure.close();
  });
});

describe("open sign-up", () => {
  it("gives each new account a project of its own", async () => {
    const open = await createTestApp({ signUp: "open" });
    const openServer = await serveOverHttp(open);
    const person = new HttpClient(openServer.origin);
    const r = await person.send("POST", "/api/accounts/sign-up", {
      body: { name: "Sol", email: "sol@example.com", password: "a long password" },
    });
    expect(r.status).toBe(201);
    const me = await person.query("account.me");
    expect(me.data.projects).toEqual([expect.objectContaining({ projectName: "Sol's project", role: "owner" })]);
    await openServer.close();
    await open.close();
  });
});

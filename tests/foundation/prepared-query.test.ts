import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "@/server/core/ids";
import { preparedQuery, type DatabaseHandle, type Executor } from "@/server/db";
import { artifacts, projects, variants } from "@/server/db/schema";
import { openTestDatabase } from "../helpers/test-database";

let handle: DatabaseHandle;
const projectId = newId();
const artifactId = newId();

beforeAll(async () => {
  handle = await openTestDatabase();
  await handle.db.insert(projects).values({ id: projectId, name: "p" });
  await handle.db.insert(artifacts).values({
    id: artifactId,
    projectId,
    domain: "applications",
    slug: "app",
    name: "App",
    tags: { team: "x" },
    createdAt: new Date("2026-03-04T05:06:07.089Z"),
  });
  await handle.db.insert(variants).values({
    id: newId(),
    projectId,
    domain: "applications",
    artifactId,
    slug: "default",
    name: "Default",
    headVersion: 3,
  });
});
afterAll(() => handle.close());

const p = (name: string) => sql.placeholder(name);
const joined = (db: Executor) =>
  db
    .select({
      artifact: {
        id: artifacts.id,
        slug: artifacts.slug,
        tags: artifacts.tags,
        createdAt: artifacts.createdAt,
        description: artifacts.description,
      },
      head: variants.headVersion,
    })
    .from(artifacts)
    .innerJoin(variants, eq(variants.artifactId, artifacts.id))
    .where(eq(artifacts.slug, p("slug")));

describe("preparedQuery", () => {
  it("returns what Drizzle returns: nested selection, timestamps as Dates, jsonb, integers and nulls", async () => {
    const viaDrizzle = await joined(handle.db).execute({ slug: "app" } as never);
    const prepared = await preparedQuery(handle.db, "test.joined", joined).execute({ slug: "app" });
    expect(prepared).toEqual(viaDrizzle);
    expect(prepared).toEqual([
      {
        artifact: {
          id: artifactId,
          slug: "app",
          tags: { team: "x" },
          createdAt: new Date("2026-03-04T05:06:07.089Z"),
          description: null,
        },
        head: 3,
      },
    ]);
    expect(prepared[0].artifact.createdAt).toBeInstanceOf(Date);
    expect(await preparedQuery(handle.db, "test.joined", joined).execute({ slug: "nothing" })).toEqual([]);
  });

  it("keeps literal parameters of the query beside the placeholders", async () => {
    const scoped = (db: Executor) =>
      db
        .select({ id: artifacts.id })
        .from(artifacts)
        .where(sql`${artifacts.domain} = ${"applications"} and ${artifacts.slug} = ${p("slug")}`);
    expect(await preparedQuery(handle.db, "test.literal", scoped).execute({ slug: "app" })).toEqual([
      { id: artifactId },
    ]);
  });

  it("runs inside a transaction and sees its uncommitted writes", async () => {
    await handle.db
      .transaction(async (tx) => {
        await tx.insert(artifacts).values({ id: newId(), projectId, domain: "applications", slug: "in-tx", name: "T" });
        const seen = await preparedQuery(tx, "test.joinedLeft", (db) =>
          db
            .select({ slug: artifacts.slug })
            .from(artifacts)
            .where(eq(artifacts.slug, p("slug"))),
        ).execute({ slug: "in-tx" });
        expect(seen).toEqual([{ slug: "in-tx" }]);
        tx.rollback();
      })
      .catch(() => {});
    expect(
      await preparedQuery(handle.db, "test.joinedLeft", (db) =>
        db
          .select({ slug: artifacts.slug })
          .from(artifacts)
          .where(eq(artifacts.slug, p("slug"))),
      ).execute({ slug: "in-tx" }),
    ).toEqual([]);
  });

  it("refuses a selection that is not made of columns", () => {
    expect(() =>
      preparedQuery(handle.db, "test.expression", (db) => db.select({ n: sql<number>`1`.as("n") }).from(artifacts)),
    ).toThrow(/n is not a column/);
  });
});

/**
 * The benchmark floor: a minimal node:http + postgres.js server that does what a
 * request costs at the least, and writes the bytes the app answered for the same request with the
 * same headers and one `end`. No auth, no validation, no routing beyond the path: what is left
 * between it and the app is the app's own overhead.
 *
 * - `POST /floor`: a retrieve by slug. The app's own revision lookup (the SQL text drizzle renders
 *   for `revisionBySlug`, prepared, same parameters).
 * - `POST /floor/<kind>`: a retrieve by another kind of reference (FLOOR_LOOKUPS): the lookup query
 *   the app runs for it, with its parameters, writing the bytes the app answered for that kind.
 * - `POST /floor/<kind>/no-query`: the same bytes without running the lookup: what a server that
 *   answers from memory could serve at most on this machine (the ceiling for a cached retrieve).
 * - `POST /floor/commit`: a commit, with the app's request body. The app's own commit statements
 *   in one transaction on a reserved connection, in the two writes the app sends them in: BEGIN
 *   with the lock of the variant it names (joined to its artifact); then bump the head, insert the
 *   revision, insert the committed event (which wakes fan-out only when a webhook takes it: none
 *   does here) and COMMIT; with the same kinds of parameters (a new id and slug, JSON as text).
 *
 * Run as a child process by bench/lib/floor-server.ts; configured through FLOOR_* variables.
 */
import { randomUUID } from "node:crypto";
import { createServer, type ServerResponse } from "node:http";
import { fillPlaceholders, getTableColumns, type SQL } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { newId } from "@/server/core/ids";
import { randomSlug } from "@/server/core/slugs";
import { artifacts, variants } from "@/server/db/schema";
import { revisionEventType } from "@/shared/event-catalog";
import { changeEventInsertSql } from "@/server/events/emit";
import { webhookTakers } from "@/server/webhooks/event-takers";
import { commitStatements } from "@/server/versioning/commit";
import { revisionLookupQueries } from "@/server/versioning/lookup";
import { revisionReferences } from "@/server/versioning/revision-events";
import { roleFlagsParam } from "@/server/versioning/domain-scope";
import { domainKeys, type DomainName } from "@/server/versioning/domains";

const databaseUrl = required("FLOOR_DATABASE_URL");
const port = Number(required("FLOOR_PORT"));
const retrieveResponse = Buffer.from(required("FLOOR_RESPONSE_BASE64"), "base64");
const slug = required("FLOOR_SLUG");
const commitResponse = Buffer.from(process.env.FLOOR_COMMIT_RESPONSE_BASE64 ?? "", "base64");

const sql = postgres(databaseUrl, { max: 10, onnotice: () => {} });
// The revision's scope, found once: the app learns it from the API key on every request.
const [scope] = await sql<
  { project_id: string; domain: string; author_id: string | null }[]
>`select project_id, domain, author_id from revisions where slug = ${slug}`;
if (!scope) throw new Error(`no revision ${slug}`);
// Only to render the statements: the requests go through postgres.js directly.
const renderer = drizzle(sql) as never;
const render = (build: (db: never) => { toSQL(): { sql: string; params: unknown[] } }) => build(renderer).toSQL();

interface FloorLookup {
  sql: string;
  values: unknown[];
  response: Buffer;
}
/** A lookup the app runs, with its values (the scope's project and domain added), and the app's answer. */
const lookupFor = (
  query: keyof typeof revisionLookupQueries,
  values: Record<string, unknown>,
  response: Buffer,
): FloorLookup => {
  const statement = render(revisionLookupQueries[query]);
  return {
    sql: statement.sql,
    values: fillPlaceholders(statement.params as SQL[], {
      projectId: scope.project_id,
      domain: scope.domain,
      roleFlags: roleFlagsParam(domainKeys(scope.domain as DomainName)),
      ...values,
    }),
    response,
  };
};
const lookups = new Map<string, FloorLookup>([["/floor", lookupFor("revisionBySlug", { slug }, retrieveResponse)]]);
const configured = JSON.parse(process.env.FLOOR_LOOKUPS ?? "{}") as Record<
  string,
  { query: keyof typeof revisionLookupQueries; values: Record<string, unknown>; response: string }
>;
for (const [kind, lookup] of Object.entries(configured))
  lookups.set(`/floor/${kind}`, lookupFor(lookup.query, lookup.values, Buffer.from(lookup.response, "base64")));

const commit = {
  lock: render(commitStatements.lockVariant),
  setHead: render(commitStatements.setHead),
  insertRevision: render(commitStatements.insertRevision),
  // The app's event insert with the app's takers (webhook subscriptions): written fanned out, as
  // nothing takes the bench's events, so it wakes no fan-out, as the app's does not.
  insertEvent: changeEventInsertSql(webhookTakers),
};
// The lock's row comes back as an array (both tables have an `id`); the variant's columns come first.
const variantColumns = Object.keys(getTableColumns(variants));
const HEAD_VERSION = variantColumns.indexOf("headVersion");
const ARTIFACT_ID = variantColumns.indexOf("artifactId");
const VARIANT_SLUG = variantColumns.indexOf("slug");
const ARTIFACT_SLUG = variantColumns.length + Object.keys(getTableColumns(artifacts)).indexOf("slug");
const keys = domainKeys(scope.domain as DomainName);

const run = (
  statement: { sql: string; params: unknown[] },
  values: Record<string, unknown>,
  db: postgres.Sql | postgres.ReservedSql = sql,
) => db.unsafe(statement.sql, fillPlaceholders(statement.params as SQL[], values) as never[], { prepare: true });

function retrieveOnce(lookup: FloorLookup): Promise<Buffer> {
  return sql.unsafe(lookup.sql, lookup.values as never[], { prepare: true }).then((rows) => {
    if (rows.length !== 1) throw new Error("the floor's lookup found no revision");
    return lookup.response;
  });
}

/**
 * Commits to the variant the request names, with the app's request body (`application_revision_commit`),
 * in two writes: `execute()` queues a statement on the connection at once, so what is queued
 * within one turn goes out together, BEGIN before the lock and the last three before the COMMIT.
 */
async function commitOnce(body: { application_revision_commit: { application_variant_id: string } }): Promise<void> {
  const commitVariantId = body.application_revision_commit.application_variant_id;
  const projectId = scope!.project_id;
  const tx = await sql.reserve();
  try {
    const begun = tx.unsafe("begin").execute();
    const [[locked]] = await Promise.all([
      run(
        commit.lock,
        {
          variantId: commitVariantId,
          projectId,
          domain: scope!.domain,
          roleFlags: roleFlagsParam(domainKeys(scope!.domain as DomainName)),
        },
        tx,
      )
        .values()
        .execute(),
      begun,
    ]);
    if (!locked) throw new Error("the floor's variant does not exist");
    const version = Number(locked[HEAD_VERSION]) + 1;
    const now = new Date().toISOString();
    const id = newId();
    const revisionSlug = randomSlug();
    const message = `floor ${version}`;
    const last = [
      run(commit.setHead, { variantId: commitVariantId, version }, tx).execute(),
      run(
        commit.insertRevision,
        {
          id,
          projectId,
          domain: scope!.domain,
          artifactId: locked[ARTIFACT_ID],
          variantId: commitVariantId,
          slug: revisionSlug,
          version,
          data: JSON.stringify({ parameters: { n: version } }),
          message,
          name: null,
          description: null,
          flags: "{}",
          tags: "{}",
          meta: "{}",
          authorId: scope!.author_id,
          createdAt: now,
        },
        tx,
      ).execute(),
      tx
        .unsafe(
          commit.insertEvent,
          [
            newId(),
            projectId,
            revisionEventType(scope!.domain, "committed"),
            now,
            // The committed event's attributes as the app writes them (the same bytes to send).
            JSON.stringify({
              references: revisionReferences(keys, {
                id,
                slug: revisionSlug,
                version,
                artifactId: locked[ARTIFACT_ID],
                artifactSlug: locked[ARTIFACT_SLUG],
                variantId: commitVariantId,
                variantSlug: locked[VARIANT_SLUG],
              } as never),
              user_id: scope!.author_id,
              message,
            }),
          ],
          { prepare: true },
        )
        .execute(),
    ];
    await Promise.all([...last, tx.unsafe("commit").execute()]);
  } catch (error) {
    await tx.unsafe("rollback").catch(() => {});
    throw error;
  } finally {
    tx.release();
  }
}

/** `POST /floor/<kind>/no-query`: the same answer without the query, the ceiling of a server that does no database work. */
const NO_QUERY = "/no-query";

function send(res: ServerResponse, body: Buffer): void {
  res.writeHead(200, {
    "content-type": "application/json; charset=utf-8",
    "x-request-id": randomUUID(),
    "content-length": String(body.length),
  });
  res.end(body);
}

createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => {
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    const url = req.url ?? "";
    const noQuery = url.endsWith(NO_QUERY);
    const lookup = lookups.get(noQuery ? url.slice(0, -NO_QUERY.length) : url);
    const work =
      url === "/floor/commit"
        ? commitOnce(body).then(() => commitResponse)
        : lookup
          ? noQuery
            ? Promise.resolve(lookup.response)
            : retrieveOnce(lookup)
          : Promise.reject(new Error(`no floor route ${url}`));
    work.then((bytes) => send(res, bytes)).catch((error: Error) => res.writeHead(500).end(error.message));
  });
}).listen(port, "127.0.0.1", () => process.stdout.write("floor ready\n"));

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

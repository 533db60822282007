/**
 * The benchmark floor (issue 15): a minimal node:http + postgres.js server that does what a
 * retrieve by slug costs at the least: read the JSON body, run the app's own revision lookup
 * (the SQL text drizzle renders for `revisionBySlug`, prepared, same parameters) and write the
 * bytes the app answered for the same request, with the same headers and one `end`. No auth, no
 * read event, no validation: what is left between it and the app is the app's own overhead.
 *
 * Run as a child process by bench/lib/floor-server.ts; configured through FLOOR_* variables.
 */
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { fillPlaceholders } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import postgres from "postgres";
import { revisionLookupQueries } from "@/server/versioning/lookup";

const databaseUrl = required("FLOOR_DATABASE_URL");
const port = Number(required("FLOOR_PORT"));
const response = Buffer.from(required("FLOOR_RESPONSE_BASE64"), "base64");
const slug = required("FLOOR_SLUG");

const sql = postgres(databaseUrl, { max: 10, onnotice: () => {} });
// The revision's scope, found once: the app learns it from the API key on every request.
const [scope] = await sql<{ project_id: string; domain: string }[]>`select project_id, domain from revisions where slug = ${slug}`;
if (!scope) throw new Error(`no revision ${slug}`);
const params = { projectId: scope.project_id, domain: scope.domain, slug };
// Only to render the statement: the requests go through postgres.js directly.
const rendered = revisionLookupQueries.revisionBySlug(drizzle(sql) as never).toSQL();
const values = fillPlaceholders(rendered.params, params) as string[];

const contentLength = String(response.length);
createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => {
    JSON.parse(Buffer.concat(chunks).toString("utf8"));
    sql.unsafe(rendered.sql, values, { prepare: true }).then(
      (rows) => {
        if (rows.length !== 1) throw new Error("the floor's lookup found no revision");
        res.writeHead(200, { "content-type": "application/json; charset=utf-8", "x-request-id": randomUUID(), "content-length": contentLength });
        res.end(response);
      },
      (error: Error) => {
        res.writeHead(500).end(error.message);
      },
    );
  });
}).listen(port, "127.0.0.1", () => process.stdout.write("floor ready\n"));

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

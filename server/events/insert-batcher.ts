import { EVENTS_CHANNEL } from "./notify";
import { logger } from "@/server/core/logger";
import { processWide } from "@/server/core/process-wide";
import { projectExistsLockedSql } from "@/server/auth";
import { rawQuery, type Database } from "@/server/db";
import { eventTakersOf, type EventTakers } from "./event-takers";

/** A queued event: its attributes already JSON (server/events/emit.ts serialises them). */
export interface QueuedEvent {
  id: string;
  projectId: string;
  eventType: string;
  timestamp: Date;
  attributes: string;
}

/** How long the first queued row waits for company; a full batch goes at once. */
const FLUSH_DELAY_MS = 10;
const MAX_BATCH = 1000;

/**
 * One statement for any number of rows, prepared once per database: the SQL never changes with the
 * batch size (building a multi-row insert per batch cost more than the insert itself). Rows that
 * share their project, type and attributes (every retrieve of one cached answer by one key) travel
 * as one group, JSON the database parses once, and each row as its id, time and group number in
 * three arrays: parsing every row's attributes cost the database a third of its work per read
 * event. A read event nobody takes (`takers`: webhooks' active subscriptions, given by the
 * composition root, see event-takers.ts) is written already fanned out (fan-out would only mark
 * it), decided once per group, and the fan-out worker is woken in the same statement only when a
 * row is left for it: under a stream of retrieves, a fan-out transaction per batch and the update
 * of every event row cost as much as the retrieves' own work. Each group locks its project
 * `FOR KEY SHARE`, the check a foreign key would make per row (see server/events/README.md); the
 * rows of a project deleted meanwhile are not written.
 */
function insertRowsSql(takers: EventTakers): string {
  return `
with g as materialized (
  select g.n, g.project_id, g.event_type, g.attributes, ${takers("g.project_id", "g.event_type")} as subscribed
  from rows from (jsonb_to_recordset($1::text::jsonb) as (project_id uuid, event_type text, attributes jsonb))
    with ordinality as g(project_id, event_type, attributes, n)
  where ${projectExistsLockedSql("g.project_id")}
), written as (
  insert into events (id, project_id, event_type, "timestamp", created_at, attributes, fanned_out_at)
  select r.id, g.project_id, g.event_type, r.at, r.at, g.attributes, case when g.subscribed then null else r.at end
  from (
    select u.id, timestamptz 'epoch' + u.ms * interval '1 millisecond' as at, u.n
    from unnest($2::text::uuid[], $3::text::int8[], $4::text::int8[]) as u(id, ms, n)
  ) r join g on g.n = r.n
  returning fanned_out_at
)
select pg_notify('${EVENTS_CHANNEL}', '') from written where fanned_out_at is null limit 1`;
}

interface Group {
  n: number;
  projectId: string;
  eventType: string;
}

/**
 * The statement's parameters: the distinct groups as a JSON array (attributes are JSON already),
 * then the rows' ids, times (ms since the epoch) and group numbers as array literals. Ids are
 * UUIDs, so they need no quoting. Rows are grouped by their attributes' text: a cached answer's
 * events share the very string, whose hash V8 computes once.
 */
function batchParams(rows: QueuedEvent[]): string[] {
  const groups = new Map<string, Group[]>();
  let groupsJson = "[";
  let count = 0;
  let ids = "{";
  let times = "{";
  let numbers = "{";
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    const same = groups.get(row.attributes);
    let group = same?.find((g) => g.projectId === row.projectId && g.eventType === row.eventType);
    if (!group) {
      group = { n: ++count, projectId: row.projectId, eventType: row.eventType };
      if (same) same.push(group);
      else groups.set(row.attributes, [group]);
      groupsJson +=
        (count > 1 ? "," : "") +
        `{"project_id":${JSON.stringify(row.projectId)},"event_type":${JSON.stringify(row.eventType)},` +
        `"attributes":${row.attributes}}`;
    }
    const separator = i ? "," : "";
    ids += separator + row.id;
    times += separator + row.timestamp.getTime();
    numbers += separator + group.n;
  }
  return [groupsJson + "]", ids + "}", times + "}", numbers + "}"];
}

/**
 * Groups event inserts made within a few milliseconds into one insert, and can be drained:
 * everything handed to it so far is written (or has failed and been logged) when `drain()`
 * resolves. Rows are fire-and-forget: no promise per row, since nobody waits for a single read
 * event.
 */
class InsertBatcher {
  private pending: QueuedEvent[] = [];
  private unwritten = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly db: Database) {}

  /** Rows accepted but not yet written, queued or in flight. */
  get backlog(): number {
    return this.unwritten;
  }

  enqueue(row: QueuedEvent): void {
    this.pending.push(row);
    this.unwritten++;
    if (this.pending.length >= MAX_BATCH) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), FLUSH_DELAY_MS);
  }

  async drain(): Promise<void> {
    if (this.pending.length > 0) this.flush();
    await Promise.all([...this.inFlight]);
  }

  private flush(): void {
    const batch = this.pending;
    this.pending = [];
    clearTimeout(this.timer);
    this.timer = undefined;
    if (batch.length === 0) return;
    const write = this.writeAll(batch).finally(() => {
      this.unwritten -= batch.length;
      this.inFlight.delete(write);
    });
    this.inFlight.add(write);
  }

  /**
   * Writes a batch, or, if that fails, each row alone, so one bad row costs only itself. Never
   * rejects (it runs from a timer): what is lost is logged.
   */
  private async writeAll(batch: QueuedEvent[]): Promise<void> {
    try {
      await this.write(batch);
    } catch (error) {
      const lost =
        batch.length === 1
          ? batch
          : (
              await Promise.all(
                batch.map((row) =>
                  this.write([row]).then(
                    () => null,
                    () => row,
                  ),
                ),
              )
            ).filter((row) => row !== null);
      if (lost.length > 0) {
        logger.error(
          { err: error, rows: lost.length, eventTypes: [...new Set(lost.map((row) => row.eventType))] },
          "read events not written",
        );
      }
    }
  }

  /** The statement for the takers the database's outbox has now (the composition root may set them late). */
  private statement: { takers: EventTakers; sql: string } | undefined;

  private async write(rows: QueuedEvent[]): Promise<void> {
    const takers = eventTakersOf(this.db);
    if (this.statement?.takers !== takers) this.statement = { takers, sql: insertRowsSql(takers) };
    await rawQuery(this.db, this.statement.sql, batchParams(rows));
  }
}

/** One batcher per database; the REST and tRPC route bundles must drain the same one. */
export const eventBatcherFor = processWide<Database, InsertBatcher>("event-batchers", (db) => new InsertBatcher(db));

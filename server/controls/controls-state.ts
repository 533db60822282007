import type { RateLimiterAbstract } from "rate-limiter-flexible";
import type { AppContext } from "@/server/core/app-context";
import { processWide } from "@/server/core/process-wide";
import { onDatabaseClose } from "@/server/db";
import { ControlsCache } from "./controls-cache";
import type { ProjectRows } from "./control-rows";
import { plusUsd } from "./decimal-usd";
import { RequestLeases } from "./request-leases";
import { sharedRateLimiter } from "./shared-limiter";
import { SharedTally, type TallyOptions, type TallyTotal } from "./shared-tally";
import { spendStore, type SpendMeta } from "./spend-store";

/** A counter far above any limit: the limiter counts, and `checkTurn` compares with each key's own limit. */
const UNBOUNDED = 2_000_000_000;

/**
 * How often an instance writes its counts (spend, tokens) and reads again the totals it serves
 * (PostgreSQL; the embedded database is one process's, so its counts are the totals).
 */
export const SYNC_MS = 100;

/**
 * The share of a requests-per-minute limit an instance leases at a time on PostgreSQL (at least
 * one request): with n instances, up to (n - 1) leases may sit unused on other instances, so a
 * key can be refused up to (n - 1) x 5% of its limit early, and never admitted past it.
 */
export const LEASE_SHARE = 0.05;

/** What one app process keeps for the controls of one database. */
export interface ControlsState {
  rows: ControlsCache<ProjectRows>;
  requests: RequestLeases;
  tokens: SharedTally<undefined>;
  spend: SharedTally<SpendMeta>;
}

const holders = processWide<object, { state?: ControlsState }>("controls-states", () => ({}));

/**
 * One state per database in the process (shared by Next.js's route bundles), closed with it after
 * a last write of its counts. The embedded database is one process's, so its request counter
 * lives in memory; PostgreSQL's is `rate_limit_points` (rate-limiter-flexible's Drizzle store),
 * which every instance on the database leases from.
 */
export function controlsState(app: Pick<AppContext, "db" | "dbKind" | "now" | "config">): ControlsState {
  const holder = holders(app.db);
  if (holder.state) return holder.state;
  const alone = app.dbKind !== "postgres";
  const limiter = (keyPrefix: string): RateLimiterAbstract =>
    sharedRateLimiter(app, { keyPrefix, points: UNBOUNDED, duration: 60 });
  const now = () => app.now().getTime();
  const tally: TallyOptions = { alone, freshMs: SYNC_MS, syncMs: SYNC_MS, now };
  const tokens = limiter("tpm");
  const state: ControlsState = {
    rows: new ControlsCache(app.db, app.config.cacheTtlWithoutListenMs),
    // One process leases the whole limit: nobody else could use what it leaves.
    requests: new RequestLeases(limiter("rpm"), (limit) => (alone ? limit : Math.floor(limit * LEASE_SHARE)), now),
    tokens: new SharedTally(
      {
        async add(items) {
          const totals = new Map<string, TallyTotal>();
          await Promise.all(
            items.map(async ({ key, amount }) => {
              const res = await tokens.penalty(key, amount);
              totals.set(key, { value: res.consumedPoints, expiresAt: now() + res.msBeforeNext });
            }),
          );
          return totals;
        },
        async read(keys) {
          const totals = new Map<string, TallyTotal>();
          await Promise.all(
            keys.map(async (key) => {
              const res = await tokens.get(key);
              if (res) totals.set(key, { value: res.consumedPoints, expiresAt: now() + res.msBeforeNext });
            }),
          );
          return totals;
        },
      },
      tally,
    ),
    spend: new SharedTally(spendStore(app), { ...tally, plus: plusUsd }),
  };
  holder.state = state;
  onDatabaseClose(app.db, async () => {
    await Promise.all([state.spend.close(), state.tokens.close()]);
    await state.rows.stop();
  });
  return state;
}

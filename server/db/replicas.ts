import { logger } from "@/server/core/logger";
import type { Database } from "./database-types";
import { describeDatabaseFailure } from "./database-failure";
import { rawQuery } from "./prepared";
import { walPosition } from "./wal-position";

/**
 * `starting`: not yet seen to have replayed a position the primary had (its lag is unknown);
 * `ready`: within REPLICA_MAX_LAG_MS; `lagging`: further behind; `down`: unreachable or failing;
 * `not_a_replica`: the URL reaches a server that is not in recovery (a primary, a promoted
 * standby), whose data may have left the primary's: never read from.
 */
export type ReplicaState = "starting" | "ready" | "lagging" | "down" | "not_a_replica";

/** One replica as `/api/health` shows it. */
export interface ReplicaHealth {
  /** `host:port/database`, without credentials. */
  name: string;
  state: ReplicaState;
  /** How old the newest primary position it has replayed was when it was last checked. */
  lag_ms?: number;
  replayed_lsn?: string;
  /** Why it is `down` or `not_a_replica`. */
  error?: string;
}

export interface Replica {
  readonly name: string;
  readonly db: Database;
  state: ReplicaState;
  lagMs?: number;
  replayed?: bigint;
  replayedLsn?: string;
  error?: string;
}

/** A position the primary had reached, and when: the replicas' lag is measured against these. */
interface PrimarySample {
  /** When the answer came back. */
  at: number;
  /** When it was asked for: every commit the primary had made by then lies before `position`. */
  askedAt: number;
  position: bigint;
}

/**
 * The read replicas of one primary and what is known of each: a probe every `probeIntervalMs`
 * reads the primary's WAL position, then each replica's replayed position; a replica's lag is the
 * age of the newest primary position it has replayed (so an idle primary does not make a healthy
 * replica look stale, and a replica whose stream broke off does). A replica that is down keeps
 * being probed, and serves again once it answers and has caught up.
 */
export class ReplicaSet {
  private readonly samples: PrimarySample[] = [];
  private turn = 0;
  private timer: NodeJS.Timeout | undefined;
  private probing: Promise<void> | undefined;

  constructor(
    private readonly primary: Database,
    readonly replicas: Replica[],
    readonly maxLagMs: number,
    readonly probeIntervalMs: number,
    private readonly end: () => Promise<void>,
  ) {}

  start(): Promise<void> {
    this.timer = setInterval(() => void this.probe(), this.probeIntervalMs);
    this.timer.unref();
    return this.probe();
  }

  /** One round of probes (a round already under way is joined, not doubled). */
  probe(): Promise<void> {
    this.probing ??= this.probeAll().finally(() => (this.probing = undefined));
    return this.probing;
  }

  /**
   * A replica to read from: one within the lag bound that has replayed `position` (the caller's
   * last write), taking turns; undefined: read from the primary. When none is known to have
   * replayed it yet, the most advanced is asked once more, since the last probe may be older
   * than the write.
   */
  async choose(position?: bigint): Promise<Replica | undefined> {
    const ready = this.replicas.filter((replica) => replica.state === "ready");
    if (ready.length === 0) return undefined;
    const start = this.turn++ % ready.length;
    const rotation = [...ready.slice(start), ...ready.slice(0, start)];
    if (position === undefined) return rotation[0];
    const replayed = rotation.find((replica) => replica.replayed! >= position);
    if (replayed) return replayed;
    const best = rotation.reduce((a, b) => (b.replayed! > a.replayed! ? b : a));
    await this.readReplayed(best);
    return best.state === "ready" && best.replayed! >= position ? best : undefined;
  }

  /**
   * A primary position past every commit made before `at` (ms since the epoch, `Date.now()`): the
   * first sample asked for at or after it. Undefined while no probe has asked since: then only
   * the primary is known to hold those commits.
   */
  positionSince(at: number): bigint | undefined {
    for (const sample of this.samples) if (sample.askedAt >= at) return sample.position;
    return undefined;
  }

  anyReady(): boolean {
    return this.replicas.some((replica) => replica.state === "ready");
  }

  /** A read on `replica` failed for the database's sake: skip it until a probe finds it well. */
  markDown(replica: Replica, error: unknown): void {
    this.transition(replica, "down", describeDatabaseFailure(error));
  }

  health(): ReplicaHealth[] {
    return this.replicas.map((replica) => ({
      name: replica.name,
      state: replica.state,
      ...(replica.lagMs === undefined ? {} : { lag_ms: replica.lagMs }),
      ...(replica.replayedLsn === undefined ? {} : { replayed_lsn: replica.replayedLsn }),
      ...(replica.error === undefined ? {} : { error: replica.error }),
    }));
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.probing;
    await this.end();
  }

  private async probeAll(): Promise<void> {
    let sample: PrimarySample;
    try {
      const askedAt = Date.now();
      const [row] = await rawQuery<{ lsn: string }>(this.primary, "select pg_current_wal_lsn()::text as lsn");
      sample = { at: Date.now(), askedAt, position: walPosition(row.lsn) };
    } catch {
      return; // The primary's own failures surface in the requests; nothing to measure against.
    }
    this.samples.push(sample);
    const horizon = sample.at - this.maxLagMs - 2 * this.probeIntervalMs;
    while (this.samples.length > 1 && this.samples[0].at < horizon) this.samples.shift();
    await Promise.all(this.replicas.map((replica) => this.probeReplica(replica)));
  }

  private async probeReplica(replica: Replica): Promise<void> {
    if (!(await this.readReplayed(replica))) return;
    const at = Date.now();
    let caught: PrimarySample | undefined;
    for (const sample of this.samples) if (sample.position <= replica.replayed!) caught = sample;
    if (caught) replica.lagMs = Math.max(0, at - caught.at);
    else if (replica.lagMs !== undefined || replica.state !== "starting") replica.lagMs = at - this.samples[0].at;
    if (replica.lagMs === undefined) return this.transition(replica, "starting");
    this.transition(replica, replica.lagMs > this.maxLagMs ? "lagging" : "ready");
  }

  /** Reads the replica's replayed position; false when it could not be read (then it is down or not a replica). */
  private async readReplayed(replica: Replica): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    try {
      // Bounded: a standby busy replaying (a dropped database, a lock) may hold a new session back.
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(Object.assign(new Error("the replica did not answer its probe in 2 s"), { code: "ETIMEDOUT" })),
          2_000,
        );
      });
      const [row] = await Promise.race([
        rawQuery<{ recovering: boolean; replayed: string | null }>(
          replica.db,
          "select pg_is_in_recovery() as recovering, pg_last_wal_replay_lsn()::text as replayed",
        ),
        timeout,
      ]);
      if (!row.recovering || row.replayed === null) {
        this.transition(replica, "not_a_replica", "the server is not in recovery (not a standby of DATABASE_URL)");
        return false;
      }
      replica.replayedLsn = row.replayed;
      replica.replayed = walPosition(row.replayed);
      return true;
    } catch (error) {
      this.markDown(replica, error);
      return false;
    } finally {
      clearTimeout(timer);
    }
  }

  private transition(replica: Replica, state: ReplicaState, error?: string): void {
    const was = replica.state;
    replica.state = state;
    replica.error = error;
    if (state === "down" || state === "not_a_replica") replica.lagMs = undefined;
    if (was === state) return;
    const fields = { replica: replica.name, state, lag_ms: replica.lagMs, max_lag_ms: this.maxLagMs, error };
    if (state === "ready") logger.info(fields, "read replica serves reads");
    else if (state !== "starting")
      logger.warn(fields, "read replica skipped: its reads go to another replica or the primary");
  }
}

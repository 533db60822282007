import { randomFillSync } from "node:crypto";

/**
 * Every row id is a UUIDv7 (RFC 9562): time-ordered, so ids sort by creation and index well.
 *
 * Written here rather than taken from `uuid`, which asks the CSPRNG for 16 fresh bytes per id:
 * on the hot path (a request id and an event id per read) that call alone cost more than the
 * rest of the id. Random bytes come from a pool refilled 4 KiB at a time instead.
 *
 * Within one millisecond ids stay ordered: a 31-bit sequence spread over `rand_a` and the top of
 * `rand_b` (RFC 9562 section 6.2, method 1) starts at a random value each millisecond and counts
 * up; if it ever overflows, the timestamp moves on by one millisecond.
 */
export function newId(): string {
  const now = Date.now();
  if (now > lastMs) {
    lastMs = now;
    seq = randomUint31();
  } else if (++seq > MAX_SEQ) {
    lastMs++;
    seq = randomUint31();
  }
  const random = takeRandom(6);
  const ms = lastMs;
  const high = Math.floor(ms / 0x10000);
  putHex(0, (high >>> 24) & 0xff);
  putHex(2, (high >>> 16) & 0xff);
  putHex(4, (high >>> 8) & 0xff);
  putHex(6, high & 0xff);
  putHex(9, (ms >>> 8) & 0xff);
  putHex(11, ms & 0xff);
  putHex(14, 0x70 | ((seq >>> 27) & 0x0f));
  putHex(16, (seq >>> 19) & 0xff);
  putHex(19, 0x80 | ((seq >>> 13) & 0x3f));
  putHex(21, (seq >>> 5) & 0xff);
  putHex(24, ((seq << 3) & 0xf8) | (POOL[random] & 0x07));
  for (let i = 1; i < 6; i++) putHex(24 + 2 * i, POOL[random + i]);
  // One string of 36 bytes: concatenating 20 pieces made as many intermediate strings, and the
  // two ids of a cached read (request and read event) were a tenth of all it allocated.
  return TEXT.toString("latin1", 0, 36);
}

/**
 * `bytes` random bytes as hex digits (a trace id is 16, a span id 8), from the same pool:
 * `randomBytes(8)` per id was a call into OpenSSL each (1.9 against 0.15 µs an id in a loop; in a
 * CPU profile of agent runs, 30 to 60 µs of each run's 3.5 ms: it mints five ids or more).
 */
export function randomHex(bytes: number): string {
  const offset = takeRandom(bytes);
  return Buffer.from(POOL.buffer, POOL.byteOffset + offset, bytes).toString("hex");
}

/** The least UUIDv7 minted at `ms` (their first 48 bits are the time): ids below it were minted before. */
export function idFloor(ms: number): string {
  const hex = Math.max(0, Math.floor(ms)).toString(16).padStart(12, "0");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-0000-0000-000000000000`;
}

/** `idFloor` in SQL, of the timestamptz parameter or expression `at` (such as `$2`). */
export function idFloorSql(at: string): string {
  return `(lpad(to_hex((extract(epoch from ${at}::timestamptz) * 1000)::bigint), 12, '0') || repeat('0', 20))::uuid`;
}

const MAX_SEQ = 0x7fffffff;
const HEX_DIGITS = Buffer.from("0123456789abcdef", "latin1");
/** The id's text, rewritten in place for each id; the dashes never move. */
const TEXT = Buffer.from("00000000-0000-0000-0000-000000000000", "latin1");
const POOL = new Uint8Array(4096);
let poolOffset = POOL.length;
let lastMs = -Infinity;
let seq = 0;

function putHex(at: number, byte: number): void {
  TEXT[at] = HEX_DIGITS[byte >>> 4];
  TEXT[at + 1] = HEX_DIGITS[byte & 0x0f];
}

/** Offset of `count` unused random bytes in POOL. */
function takeRandom(count: number): number {
  if (poolOffset + count > POOL.length) {
    randomFillSync(POOL);
    poolOffset = 0;
  }
  const offset = poolOffset;
  poolOffset += count;
  return offset;
}

function randomUint31(): number {
  const o = takeRandom(4);
  return ((POOL[o] << 24) | (POOL[o + 1] << 16) | (POOL[o + 2] << 8) | POOL[o + 3]) >>> 1;
}

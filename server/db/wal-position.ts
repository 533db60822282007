/**
 * A WAL position as PostgreSQL prints a `pg_lsn` (`16/B374D848`: the high and low 32 bits in hex)
 * turned into one number, so positions compare with `<`.
 */
export function walPosition(lsn: string): bigint {
  const slash = lsn.indexOf("/");
  if (slash < 1) throw new Error(`Not a WAL position: ${JSON.stringify(lsn)}`);
  return (BigInt(`0x${lsn.slice(0, slash)}`) << 32n) + BigInt(`0x${lsn.slice(slash + 1)}`);
}

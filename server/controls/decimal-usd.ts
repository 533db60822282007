import Big from "big.js";

/**
 * Amounts of money added as decimals (big.js, as the analytics roll-ups add costs), each double
 * read as its shortest decimal form: $0.018 three times is $0.054, where doubles make
 * 0.05399999999999999 (which a budget of $0.054 would not even count as reached).
 */
export const plusUsd = (a: number, b: number): number => new Big(a).plus(b).toNumber();

/** A budget's warning level in USD, as a decimal: a percent of its limit. */
export const warnLevelUsd = (budget: { limitUsd: number; warnPercent: number }): number =>
  new Big(budget.limitUsd).times(budget.warnPercent).div(100).toNumber();

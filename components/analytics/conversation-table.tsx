"use client";

import type { ReactNode } from "react";
import { SelectInput } from "@/components/editor/select-input";
import { Card } from "@/components/ui";
import { formatMs, formatScores, formatUsd, LIST_RANGES, type ListRange } from "./conversation-format";

/** What a session's or a user's runs added up to: the columns both conversation lists end with. */
export interface ConversationTotals {
  errors: number;
  cost: number;
  tokens: number;
  latency_ms: { mean: number };
  scores: Parameters<typeof formatScores>[0];
  last_at: string;
}

const TOTALS_HEADERS = ["Errors", "Cost", "Tokens", "Mean latency", "Score", "Last active"];

/** The Sessions and Users table: their own leading columns, then the totals' (and any trailing ones). */
export function ConversationTable({
  testId,
  leading,
  trailing = [],
  children,
}: {
  testId: string;
  leading: string[];
  trailing?: string[];
  children: ReactNode;
}) {
  return (
    <Card>
      <div className="overflow-x-auto">
        <table className="w-full text-sm" data-testid={testId}>
          <thead>
            <tr className="text-left text-xs text-muted">
              {[...leading, ...TOTALS_HEADERS, ...trailing].map((h, i) => (
                <th key={`${i}-${h}`} className="px-2 py-1 font-medium whitespace-nowrap">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>{children}</tbody>
        </table>
      </div>
    </Card>
  );
}

/** A row's totals cells; the cost cell is `<prefix>-cost` for tests that read it. */
export function TotalsCells({ totals, testIdPrefix }: { totals: ConversationTotals; testIdPrefix: string }) {
  return (
    <>
      <td className="px-2 py-1 tabular-nums">{totals.errors}</td>
      <td className="px-2 py-1 tabular-nums" data-testid={`${testIdPrefix}-cost`}>
        {formatUsd(totals.cost)}
      </td>
      <td className="px-2 py-1 tabular-nums">{totals.tokens}</td>
      <td className="px-2 py-1 tabular-nums">{formatMs(totals.latency_ms.mean)}</td>
      <td className="px-2 py-1 tabular-nums">{formatScores(totals.scores)}</td>
      <td className="px-2 py-1 whitespace-nowrap">{new Date(totals.last_at).toLocaleString()}</td>
    </>
  );
}

const RANGE_LABELS: Record<ListRange, string> = { "24h": "24 hours", "7d": "7 days", "30d": "30 days" };

/** The window both lists are read over. */
export function RangeSelect({ value, onChange }: { value: ListRange; onChange: (range: ListRange) => void }) {
  return (
    <SelectInput aria-label="Range" value={value} onChange={(e) => onChange(e.target.value as ListRange)}>
      {(Object.keys(LIST_RANGES) as ListRange[]).map((k) => (
        <option key={k} value={k}>
          Last {RANGE_LABELS[k]}
        </option>
      ))}
    </SelectInput>
  );
}

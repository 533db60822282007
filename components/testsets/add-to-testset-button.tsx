"use client";

import { useState } from "react";
import { MemberButton } from "@/components/shell/member-button";
import { Notice, type ButtonProps } from "@/components/ui";
import { AddToTestsetDialog } from "./add-to-testset-dialog";
import type { TestcaseData } from "./testset-table";

/**
 * "Add to testset" for traffic: a trace, a chat turn, or several traces. The rows are read when
 * the button is pressed (several traces are fetched then), so a list does not load what nobody adds.
 */
export function AddToTestsetButton({
  rows,
  label = "Add to testset",
  size = "sm",
  variant,
  disabled,
}: {
  rows: () => TestcaseData[] | Promise<TestcaseData[]>;
  label?: string;
  size?: ButtonProps["size"];
  variant?: ButtonProps["variant"];
  disabled?: boolean;
}) {
  const [loaded, setLoaded] = useState<TestcaseData[] | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string>();

  async function open() {
    setLoading(true);
    setError(undefined);
    try {
      const found = await rows();
      if (found.length === 0) setError("Nothing to add: no user message was recorded.");
      else setLoaded(found);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setLoading(false);
    }
  }

  return (
    <>
      <MemberButton
        size={size}
        variant={variant}
        onClick={() => void open()}
        loading={loading}
        disabled={disabled}
        viewerTitle="Viewers cannot change testsets"
      >
        {label}
      </MemberButton>
      {error && (
        <Notice tone="danger" className="basis-full">
          {error}
        </Notice>
      )}
      <AddToTestsetDialog open={loaded !== null} rows={loaded ?? []} onClose={() => setLoaded(null)} />
    </>
  );
}

"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useTRPC } from "@/components/trpc";
import { isActive } from "./report-math";
import { withProgress, withRound } from "./stream-updates";
import type { Optimization, OptimizationProgress, Round } from "./types";

/** The playground's door to an optimization's events: the session's, no API key in the browser. */
export const optimizationEventsPath = (id: string) => `/api/playground/improve/optimizations/${id}/events`;

/**
 * `live`: following the stream (or not needed: the optimization has ended); `closed`: the stream
 * closed before the optimization's end (the server went away, a proxy cut it, an error frame), so
 * the report polls instead and says so.
 */
export type OptimizationStreamState = "live" | "closed";

/**
 * Follows an optimization's event stream while it is queued or running and writes each event into
 * the report's query (`improve.optimization`), so the progress bar, the chart and the tables read
 * one cache: `progress` and `round` patch it, `finished` replaces it and ends the stream. Each
 * event is pushed by the server as the workers write it, instead of the page asking every second.
 */
export function useOptimizationStream(id: string): OptimizationStreamState {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const status = useQuery(trpc.improve.optimization.queryOptions({ id })).data?.status;
  const [state, setState] = useState<OptimizationStreamState>("live");
  const follow = state === "live" && status !== undefined && isActive(status);

  useEffect(() => {
    if (!follow) return;
    const queryKey = trpc.improve.optimization.queryKey({ id });
    const source = new EventSource(optimizationEventsPath(id));
    const patch = (change: (o: Optimization) => Optimization) =>
      queryClient.setQueryData(queryKey, (o) => (o ? change(o) : o));
    source.addEventListener("progress", (event) =>
      patch((o) => withProgress(o, JSON.parse(event.data) as OptimizationProgress)),
    );
    source.addEventListener("round", (event) => patch((o) => withRound(o, JSON.parse(event.data) as Round)));
    source.addEventListener("finished", (event) => {
      source.close();
      queryClient.setQueryData(queryKey, JSON.parse(event.data) as Optimization);
    });
    // A network error, the server's close before `finished` (EventSource would reconnect and
    // replay), or the server's own `error` frame: stop following and let the report poll.
    source.addEventListener("error", () => {
      source.close();
      setState("closed");
    });
    return () => source.close();
  }, [follow, id, queryClient, trpc]);

  return state;
}

import { domainKeys, type DomainSpec } from "@/server/versioning";
import { QUERY_DATA_KEYS } from "../data-keys";
import { queryRetrieveOptions, shapeQueryRetrieved } from "./retrieve-options";

/** Saved trace queries: a revision holds `filtering`, `windowing` and `formatting`; a retrieve may run it. */
export const queriesSpec: DomainSpec = {
  keys: domainKeys("queries"),
  dataKeys: QUERY_DATA_KEYS,
  retrieveOptions: queryRetrieveOptions,
  shapeRetrieved: shapeQueryRetrieved,
};

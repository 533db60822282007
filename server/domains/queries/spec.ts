import { domainKeys, type DomainSpec } from "@/server/versioning";
import { queryRetrieveOptions, shapeQueryRetrieved } from "./retrieve-options";

/** Saved trace queries: a revision holds `filtering`, `windowing` and `formatting`; a retrieve may run it. */
export const queriesSpec: DomainSpec = {
  keys: domainKeys("queries"),
  retrieveOptions: queryRetrieveOptions,
  shapeRetrieved: shapeQueryRetrieved,
};

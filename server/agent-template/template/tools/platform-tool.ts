import { z } from "zod";
import { closedObject } from "../closed-object";
import { nonEmptyText } from "../text";
import { toolCommonFields } from "./common-fields";

export const platformToolSchema = closedObject({
  type: z.literal("platform"),
  op: nonEmptyText().describe("Catalog operation to expose (for example discover_tools)."),
  ...toolCommonFields,
}).describe(
  "An existing service endpoint exposed as a tool; the catalog owns its description, endpoint and request schema.",
);

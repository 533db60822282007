import { isUuid } from "@/shared/ids";

/** Every evaluations view has a URL; they are built here and nowhere else. */
export const evaluationsPath = () => "/evaluations";
export const evaluationPath = (id: string) => `/evaluations/${id}`;
/** Runs side by side; the first is the baseline. */
export const comparePath = (ids: string[]) => `/evaluations/compare?runs=${ids.join(",")}`;
/** The newest evaluations of these revisions on a testset they share, side by side. */
export const compareRevisionsPath = (revisionIds: string[]) =>
  `/evaluations/compare?revisions=${revisionIds.join(",")}`;

/** Ids from a comma-separated query value; anything that is no id is dropped. */
export function idsOf(value: string | undefined): string[] {
  return [
    ...new Set(
      (value ?? "")
        .split(",")
        .map((s) => s.trim())
        .filter((s) => isUuid(s)),
    ),
  ];
}

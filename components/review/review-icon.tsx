import type { SVGProps } from "react";

/** A card with a check mark: a person's verdict on one case. */
export const ReviewIcon = (p: SVGProps<SVGSVGElement>) => (
  <svg
    viewBox="0 0 24 24"
    fill="none"
    stroke="currentColor"
    strokeWidth={1.75}
    strokeLinecap="round"
    strokeLinejoin="round"
    aria-hidden="true"
    {...p}
  >
    <rect x="4" y="3.5" width="16" height="17" rx="2.5" />
    <path d="m8.5 12.5 2.5 2.5 4.5-5" />
  </svg>
);

import type { SVGProps } from "react";

/** Bars on a time axis: a waterfall. */
export const TracesIcon = (p: SVGProps<SVGSVGElement>) => (
  <svg
    viewBox="0 0 24 24"
    fill="none"
    stroke="currentColor"
    strokeWidth={1.75}
    strokeLinecap="round"
    aria-hidden="true"
    {...p}
  >
    <path d="M4 6h8M8 12h9M12 18h8" />
  </svg>
);

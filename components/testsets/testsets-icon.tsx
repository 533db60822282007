import { Icon, type IconProps } from "@/components/ui/icons";

/** A table: rows of cases under a header. */
export const TestsetsIcon = (p: IconProps) => (
  <Icon {...p}>
    <rect x="3.5" y="4.5" width="17" height="15" rx="2" />
    <path d="M3.5 9.5h17M3.5 14.5h17M9.5 9.5v10" />
  </Icon>
);

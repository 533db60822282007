import { Icon, type IconProps } from "@/components/ui";

/** A plug: agent clients connecting to what the project exposes. */
export const ConnectIcon = (p: IconProps) => (
  <Icon {...p}>
    <path d="M9 3v5M15 3v5M6 8h12v3a6 6 0 0 1-12 0V8ZM12 17v4" />
  </Icon>
);

import { Icon, type IconProps } from "@/components/ui";

/** A card with a check mark: a person's verdict on one case. */
export const ReviewIcon = (p: IconProps) => (
  <Icon {...p}>
    <rect x="4" y="3.5" width="16" height="17" rx="2.5" />
    <path d="m8.5 12.5 2.5 2.5 4.5-5" />
  </Icon>
);

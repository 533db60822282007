import { Icon, type IconProps } from "@/components/ui";

/** Three linked nodes: an event fanned out to endpoints. */
export const WebhooksIcon = (p: IconProps) => (
  <Icon {...p}>
    <circle cx="6" cy="17" r="2.5" />
    <circle cx="18" cy="17" r="2.5" />
    <circle cx="12" cy="6" r="2.5" />
    <path d="M10.8 8.2 7.2 14.8M13.2 8.2l3.6 6.6M8.5 17h7" />
  </Icon>
);

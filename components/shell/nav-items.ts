import { AgentIcon } from "@/components/agents/icons";
import { EnvironmentsIcon } from "@/components/environments/environments-icon";
import { TracesIcon } from "@/components/traces/traces-icon";
import { WebhooksIcon } from "@/components/webhooks/webhooks-icon";
import { HomeIcon, KeyIcon, SettingsIcon } from "@/components/ui";

export interface NavItem {
  href: string;
  label: string;
  icon: typeof HomeIcon;
}

/** Only pages that exist are listed. */
export const navItems: NavItem[] = [
  { href: "/", label: "Overview", icon: HomeIcon },
  { href: "/agents", label: "Agents", icon: AgentIcon },
  { href: "/environments", label: "Environments", icon: EnvironmentsIcon },
  { href: "/traces", label: "Traces", icon: TracesIcon },
  { href: "/webhooks", label: "Webhooks", icon: WebhooksIcon },
  { href: "/connections", label: "Connections", icon: KeyIcon },
  { href: "/settings", label: "Settings", icon: SettingsIcon },
];

import { AgentIcon } from "@/components/agents/icons";
import { EnvironmentsIcon } from "@/components/environments/environments-icon";
import { TestsetsIcon } from "@/components/testsets/testsets-icon";
import { ReviewIcon } from "@/components/review/review-icon";
import { EvaluationsIcon } from "@/components/evaluations/evaluations-icon";
import { EvaluatorsIcon } from "@/components/evaluators/evaluators-icon";
import { TracesIcon } from "@/components/traces/traces-icon";
import { WebhooksIcon } from "@/components/webhooks/webhooks-icon";
import { AutomationsIcon } from "@/components/automations/automations-icon";
import { MonitorsIcon } from "@/components/monitors/monitors-icon";
import { ImproveIcon } from "@/components/improve/improve-icon";
import { ConnectIcon } from "@/components/connect/connect-icon";
import { HomeIcon, KeyIcon, SettingsIcon } from "@/components/ui";

export interface NavItem {
  href: string;
  label: string;
  icon: typeof HomeIcon;
  /** What a person does there: the Overview's card for the page. */
  description: string;
}

/** Only pages that exist are listed; the sidebar and the Overview's cards both come from here. */
export const navItems: NavItem[] = [
  {
    href: "/",
    label: "Overview",
    icon: HomeIcon,
    description:
      "How your agents are doing (runs, cost, errors, latency, tokens), where to start, and the API in two commands.",
  },
  {
    href: "/agents",
    label: "Agents",
    icon: AgentIcon,
    description:
      "Create an agent, edit its template, chat with it (tool approvals, each turn's trace), commit revisions, compare, restore or fork them.",
  },
  {
    href: "/environments",
    label: "Environments",
    icon: EnvironmentsIcon,
    description: "See what development, staging and production run, and the history of every deploy.",
  },
  {
    href: "/testsets",
    label: "Testsets",
    icon: TestsetsIcon,
    description:
      "Tables of inputs and expected answers, versioned: import, edit, compare and restore; fill them from traces.",
  },
  {
    href: "/evaluators",
    label: "Evaluators",
    icon: EvaluatorsIcon,
    description: "Exact match, patterns, similarity, or a judge model with your prompt: what scores an output.",
  },
  {
    href: "/evaluations",
    label: "Evaluations",
    icon: EvaluationsIcon,
    description: "Run revisions (or the unsaved draft) over a testset, read the scores row by row, compare runs.",
  },
  {
    href: "/review",
    label: "Review",
    icon: ReviewIcon,
    description: "Go through evaluation cases one by one and score them; your scores join the results.",
  },
  {
    href: "/traces",
    label: "Traces",
    icon: TracesIcon,
    description: "Browse the OpenTelemetry traces of every run: inputs, outputs, tokens, cost and errors.",
  },
  {
    href: "/improve",
    label: "Improve",
    icon: ImproveIcon,
    description:
      "Group failures into named failure modes, turn one into a testset, and let the optimizer propose, measure and canary a better revision.",
  },
  {
    href: "/monitors",
    label: "Monitors",
    icon: MonitorsIcon,
    description: "Thresholds on your analytics: alerts to Slack, Teams, GitHub or webhooks when an agent gets worse.",
  },
  {
    href: "/automations",
    label: "Automations",
    icon: AutomationsIcon,
    description: "Run agents on a schedule, on this service's events, or on signed inbound requests.",
  },
  {
    href: "/webhooks",
    label: "Webhooks",
    icon: WebhooksIcon,
    description: "Subscribe HTTPS endpoints to signed events and inspect each delivery.",
  },
  {
    href: "/connect",
    label: "Connect",
    icon: ConnectIcon,
    description:
      "What agent clients (Claude Desktop, Cursor, VS Code, A2A agents) can call: the MCP endpoint and each exposed agent's A2A card.",
  },
  {
    href: "/connections",
    label: "Connections",
    icon: KeyIcon,
    description: "Store provider keys and the custom model providers your agents run on.",
  },
  {
    href: "/settings",
    label: "Settings",
    icon: SettingsIcon,
    description: "API keys for scripts and services, and the project's members.",
  },
];

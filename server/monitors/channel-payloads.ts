import { alertAttributes, alertLinks, alertTitle, scopeText, type AlertFacts } from "./alert-message";
import { formatValue, METRIC_LABELS } from "@/shared/monitor-metrics";

/**
 * The request bodies of the channels, ready for each receiver as documented by it: a Slack
 * incoming webhook (`text` plus Block Kit blocks), a Teams incoming webhook of Workflows (a
 * message with one Adaptive Card), and GitHub's `repository_dispatch` (`event_type` and a
 * `client_payload` of at most 10 top-level keys). Pure.
 */
export function slackPayload(f: AlertFacts): Record<string, unknown> {
  const title = alertTitle(f);
  const links = alertLinks(f);
  const absolute = links.analytics.startsWith("http");
  return {
    text: title,
    blocks: [
      { type: "section", text: { type: "mrkdwn", text: `*${escapeSlack(title)}*` } },
      {
        type: "section",
        fields: facts(f).map(([k, v]) => ({ type: "mrkdwn", text: `*${k}*\n${escapeSlack(v)}` })),
      },
      ...(absolute
        ? [
            {
              type: "actions",
              elements: [
                { type: "button", text: { type: "plain_text", text: "Open analytics" }, url: links.analytics },
                { type: "button", text: { type: "plain_text", text: "Open monitor" }, url: links.monitor },
              ],
            },
          ]
        : []),
    ],
  };
}

export function teamsPayload(f: AlertFacts): Record<string, unknown> {
  const links = alertLinks(f);
  const absolute = links.analytics.startsWith("http");
  return {
    type: "message",
    attachments: [
      {
        contentType: "application/vnd.microsoft.card.adaptive",
        contentUrl: null,
        content: {
          $schema: "http://adaptivecards.io/schemas/adaptive-card.json",
          type: "AdaptiveCard",
          version: "1.4",
          body: [
            {
              type: "TextBlock",
              text: alertTitle(f),
              wrap: true,
              weight: "Bolder",
              color: f.kind === "resolved" ? "Good" : "Attention",
            },
            { type: "FactSet", facts: facts(f).map(([title, value]) => ({ title, value })) },
          ],
          ...(absolute
            ? {
                actions: [
                  { type: "Action.OpenUrl", title: "Open analytics", url: links.analytics },
                  { type: "Action.OpenUrl", title: "Open monitor", url: links.monitor },
                ],
              }
            : {}),
        },
      },
    ],
  };
}

export function githubDispatchPayload(f: AlertFacts, eventType: string): Record<string, unknown> {
  const a = alertAttributes(f);
  // GitHub refuses a client_payload with more than 10 top-level properties.
  return {
    event_type: eventType,
    client_payload: {
      event: f.kind === "resolved" ? "monitors.alert.resolved" : "monitors.alert.fired",
      alert: { id: f.alertId, kind: f.kind },
      monitor: { id: f.monitor.id, name: f.monitor.name },
      metric: { name: f.metric, focus: f.focus, scope: f.scope },
      threshold: { operator: f.operator, value: f.threshold, recovery: f.recoveryThreshold },
      value: f.value,
      samples: f.samples,
      window: { seconds: f.windowSeconds, start: a.window_start, end: a.window_end, evaluated_at: a.evaluated_at },
      message: a.message,
      links: { analytics: a.analytics_url, monitor: a.monitor_url },
    },
  };
}

function facts(f: AlertFacts): [string, string][] {
  return [
    ["Metric", METRIC_LABELS[f.metric]],
    ["Scope", scopeText(f.scope)],
    ["Value", formatValue(f.metric, f.value)],
    ["Threshold", `${f.operator} ${formatValue(f.metric, f.threshold)}`],
    ["Window", `${f.windowStart.toISOString()} to ${f.windowEnd.toISOString()}`],
    ["State", f.state],
  ];
}

const escapeSlack = (s: string) => s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");

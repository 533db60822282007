import type { Metadata } from "next";
import { AuditLogSection } from "@/components/audit";
import { DeployGateSection } from "@/components/deploy-gates";
import { ModelPricesSection } from "@/components/pricing";
import { RedactionSection } from "@/components/redaction";
import { RetentionSection } from "@/components/retention";
import { ApiKeysSection, MembersSection } from "@/components/settings";
import { AliasesSection, AllowlistsSection, BudgetsSection, RateLimitsSection } from "@/components/controls";
import { PageContainer, PageHeader } from "@/components/shell";

export const metadata: Metadata = { title: "Settings" };

export default function SettingsPage() {
  return (
    <PageContainer>
      <PageHeader
        title="Settings"
        description="Who is in this project, access to its API, what a deploy to production needs, and what runs may spend and call."
      />
      <MembersSection />
      <ApiKeysSection />
      <DeployGateSection />
      <ModelPricesSection />
      <BudgetsSection />
      <RateLimitsSection />
      <AllowlistsSection />
      <AliasesSection />
      <RedactionSection />
      <RetentionSection />
      <AuditLogSection />
    </PageContainer>
  );
}

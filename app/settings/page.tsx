import type { Metadata } from "next";
import { ApiKeysSection } from "@/components/settings";
import { PageContainer, PageHeader } from "@/components/shell";
import { Notice } from "@/components/ui";

export const metadata: Metadata = { title: "Settings" };

export default function SettingsPage() {
  return (
    <PageContainer>
      <PageHeader title="Settings" description="Access to this project's API." />
      <Notice title="You are the default user">
        Until logins exist, the playground acts as the default user of the default project. Keys created here belong
        to that user and project.
      </Notice>
      <ApiKeysSection />
    </PageContainer>
  );
}

import type { Metadata } from "next";
import { UsersView } from "@/components/analytics";
import { PageContainer } from "@/components/shell";

export const metadata: Metadata = { title: "Users" };

/** The users behind the project's runs. */
export default function UsersPage() {
  return (
    <PageContainer>
      <h1 className="sr-only">Users</h1>
      <UsersView />
    </PageContainer>
  );
}

import type { Metadata } from "next";
import { headers } from "next/headers";
import type { ReactNode } from "react";
import { themeBootScript } from "@/components/shell/theme";
import { TRPCReactProvider } from "@/components/trpc";
import { ToastProvider } from "@/components/ui";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Agent service", template: "%s · Agent service" },
  description: "Build, version and ship LLM agents: the playground of a self-hostable agent service.",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // proxy.ts's nonce for this request: the page's Content-Security-Policy runs no script without it.
  const nonce = (await headers()).get("x-nonce") ?? undefined;
  return (
    // The boot script may add the stored theme's class before React hydrates.
    <html lang="en" suppressHydrationWarning>
      <head>
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: themeBootScript }} />
      </head>
      <body>
        <TRPCReactProvider>
          <ToastProvider>{children}</ToastProvider>
        </TRPCReactProvider>
      </body>
    </html>
  );
}

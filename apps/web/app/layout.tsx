import { connection } from "next/server";
import type { ReactNode } from "react";
import { Providers } from "./_components/providers";
import "./globals.css";

export const metadata = { title: "Quantum Custody", description: "Non-custodial custody for the QUANTUM networks" };
export const viewport = { width: "device-width", initialScale: 1 };

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page renders per request: its scripts carry that request's CSP nonce, which a page
  // prerendered at build time could not (src/http/content-security-policy.ts).
  await connection();
  return (
    <html lang="en">
      <body>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}

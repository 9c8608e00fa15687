import type { ReactNode } from "react";
import { Providers } from "./_components/providers";
import "./globals.css";

export const metadata = { title: "Quantum Custody", description: "Non-custodial custody for the QUANTUM networks" };
export const viewport = { width: "device-width", initialScale: 1 };

export default function RootLayout({ children }: { children: ReactNode }) {
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

import type { ReactNode } from "react";
import "./globals.css";

export const metadata = { title: "Quantum Custody", description: "Non-custodial custody for the QUANTUM networks" };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>{children}</body>
    </html>
  );
}

import { z } from "zod";

export const allowlistEntry = z.object({
  cidr: z.string().min(2).max(64).meta({ description: "IPv4 or IPv6 address or CIDR range", example: "203.0.113.0/24" }),
  label: z.string().max(100).default(""),
});

export const allowlist = z.object({ entries: z.array(allowlistEntry) });

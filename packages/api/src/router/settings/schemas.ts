import { z } from "zod";
import { text } from "../../schemas/common";

export const allowlistEntry = z.object({
  cidr: text().min(2).max(64).meta({ description: "IPv4 or IPv6 address or CIDR range", example: "203.0.113.0/24" }),
  label: text().max(100).default(""),
});

export const allowlist = z.object({ entries: z.array(allowlistEntry) });

import { z } from "zod";

// The only place in @qc/db that reads process.env.
const schema = z.object({
  DATABASE_URL: z.string().url().optional(),
  DB_DRIVER: z.enum(["pg", "neon"]).optional(),
  // Local WebSocket-to-TCP proxy for the neon driver (tests, offline development):
  // "host:port/path"; the target address is appended as ?address=host:port.
  NEON_WS_PROXY: z.string().optional(),
  DB_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  // Connections for the request path's pipelined reads (node-postgres), beside the pool; 0: none.
  DB_PIPELINED_READS: z.coerce.number().int().min(0).max(32).default(2),
});

export type DbEnv = z.infer<typeof schema>;

export function readDbEnv(source: NodeJS.ProcessEnv = process.env): DbEnv {
  const parsed = schema.safeParse(source);
  if (!parsed.success) {
    throw new Error(`invalid database configuration: ${parsed.error.issues.map((i) => i.path.join(".")).join(", ")}`);
  }
  return parsed.data;
}

import { Authenticator, createServiceDeps, RateLimits, type LockoutPolicy, type Logger, type RateLimitPolicy } from "@qc/core";
import type { DatabaseHandle } from "@qc/db";
import type { AppConfig, AppDeps } from "./context";

export interface CreateAppDepsOptions {
  database: DatabaseHandle;
  databaseUrl: string;
  log: Logger;
  config: AppConfig;
  now?: () => Date;
  lockout?: LockoutPolicy;
  rateLimits?: RateLimitPolicy;
}

/** Everything a web instance needs, built once at boot (and by the tests, the same way). */
export async function createAppDeps(options: CreateAppDepsOptions): Promise<AppDeps & { close(): Promise<void> }> {
  const service = await createServiceDeps({ ...options, role: "web" });
  const authenticator = new Authenticator({
    database: options.database,
    databaseUrl: options.databaseUrl,
    pepper: options.config.apiKeyPepper,
    now: service.now,
    log: options.log,
    lockout: options.lockout,
  });
  await authenticator.listen();
  return {
    ...service,
    config: options.config,
    authenticator,
    rateLimits: new RateLimits(options.database.pool, options.rateLimits),
    async close() {
      await authenticator.close();
      await service.close();
    },
  };
}

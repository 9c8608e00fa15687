import type { DatabaseHandle } from "@qc/db";
import { serviceConfig, type ServiceConfig } from "../deps/service-config";
import { createServiceDeps, type ServiceDeps } from "../deps/service-deps";
import { createLogger } from "../logger";

/**
 * Real `ServiceDeps` over a test database: a real pg-boss (web role: sends only, so jobs stay
 * queued for the test to inspect or run), development configuration plus `config` overrides,
 * and the test's clock. Close it in afterAll.
 */
export async function createTestServiceDeps(options: {
  database: DatabaseHandle & { url: string };
  config?: Partial<ServiceConfig>;
  now?: () => Date;
}): Promise<ServiceDeps & { close(): Promise<void> }> {
  return createServiceDeps({
    database: options.database,
    databaseUrl: options.database.url,
    log: createLogger("service-test", "silent"),
    config: serviceConfig(options.config),
    now: options.now,
    role: "web",
  });
}

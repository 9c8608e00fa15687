/**
 * The REST route table, read from the OpenAPI document: tells an unknown path (404) from a
 * known path with the wrong method (405, with Allow), and a route that needs credentials from one
 * that does not, before the request reaches the adapter.
 */
export interface RouteTable {
  allowedMethods(path: string): string[] | null;
  /** True when every operation matching the path and method declares credentials (`security`). */
  requiresCredentials(path: string, method: string): boolean;
}

export function createRouteTable(paths: Record<string, Record<string, unknown>>): RouteTable {
  const routes = Object.entries(paths).map(([template, operations]) => ({
    pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+")}/?$`),
    methods: Object.keys(operations).map((m) => m.toUpperCase()),
    secured: new Set(
      Object.entries(operations)
        .filter(([, operation]) => ((operation as { security?: unknown[] }).security?.length ?? 0) > 0)
        .map(([m]) => m.toUpperCase()),
    ),
  }));
  return {
    allowedMethods(path) {
      const methods = new Set<string>();
      for (const route of routes) if (route.pattern.test(path)) route.methods.forEach((m) => methods.add(m));
      return methods.size ? [...methods] : null;
    },
    requiresCredentials(path, method) {
      const matching = routes.filter((route) => route.methods.includes(method) && route.pattern.test(path));
      return matching.length > 0 && matching.every((route) => route.secured.has(method));
    },
  };
}

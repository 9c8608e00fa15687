/**
 * The REST route table, read from the OpenAPI document: tells an unknown path (404) from a
 * known path with the wrong method (405, with Allow) before the request reaches the adapter.
 */
export interface RouteTable {
  allowedMethods(path: string): string[] | null;
}

export function createRouteTable(paths: Record<string, Record<string, unknown>>): RouteTable {
  const routes = Object.entries(paths).map(([template, operations]) => ({
    pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+")}/?$`),
    methods: Object.keys(operations).map((m) => m.toUpperCase()),
  }));
  return {
    allowedMethods(path) {
      const methods = new Set<string>();
      for (const route of routes) if (route.pattern.test(path)) route.methods.forEach((m) => methods.add(m));
      return methods.size ? [...methods] : null;
    },
  };
}

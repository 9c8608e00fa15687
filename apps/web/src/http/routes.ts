import { ndjsonLineSchema, procedureTier, type Meta } from "@qc/api";
import type { AnyRouter, AnyTRPCProcedure } from "@trpc/server";

/** A zod (v4) schema as far as routing needs to look into it: its public `def` (zod's introspection API). */
interface ZodLike {
  def?: { type?: string; in?: ZodLike; out?: ZodLike; getter?: () => ZodLike; innerType?: ZodLike; element?: ZodLike };
  shape?: Record<string, ZodLike>;
  unwrap?: () => ZodLike;
  merge?: (other: ZodLike) => ZodLike;
}

const kind = (schema: ZodLike | undefined) => schema?.def?.type;

/** The schema under optional, nullable, default, arrays, lazy and (for inputs) transforms. */
function unwrap(schema: ZodLike, throughPipes: boolean): ZodLike {
  const def = schema.def;
  switch (def?.type) {
    case "array":
      return unwrap(def.element!, throughPipes);
    case "nullable":
    case "optional":
    case "default":
    case "prefault":
      return unwrap(schema.unwrap?.() ?? def.innerType!, throughPipes);
    case "lazy":
      return unwrap(def.getter!(), throughPipes);
    case "pipe":
      if (!throughPipes) return schema;
      return unwrap(kind(def.out) === "transform" ? def.in! : def.out!, throughPipes);
    default:
      return schema;
  }
}

type ProcedureType = AnyTRPCProcedure["_def"]["type"];

export type ScalarKind = "number" | "boolean" | "bigint" | "date";

/** One /v1 operation: how it is matched, what it runs, and how its query and path strings are read. */
export interface Route {
  /** Upper case, as the guards compare it. */
  method: string;
  /** The path template, as the OpenAPI document names it: `/v1/vault/accounts/{vaultAccountId}`. */
  template: string;
  /** Case-sensitive; path parameters as named groups; one trailing slash allowed. */
  pattern: RegExp;
  /** The procedure's path in the router, e.g. `vaults.get`. */
  procedure: string;
  type: "query" | "mutation";
  /** Behind the authentication middleware (the document's `security`). */
  needsCredentials: boolean;
  successStatus: number;
  /** The procedure returns an async iterable, written as NDJSON line by line (its output made by `ndjsonLines`). */
  ndjson: boolean;
  takesInput: boolean;
  /** Input fields declared as arrays: a query key given once still becomes a one-element array. */
  arrayFields: string[];
  /**
   * Input fields declared as numbers, booleans, bigints or dates: converted from query and path
   * strings before validation. The schema is only read here, never changed: the tRPC procedures
   * and JSON bodies share it (switching `coerce` on in it turned a body's `"false"` into `true`).
   */
  scalarFields: Map<string, ScalarKind>;
}

/** A request's route and its path parameters (still percent-encoded, as the path arrived). */
export interface RouteMatch {
  route: Route;
  params: Record<string, string>;
}

/**
 * The one table of the router: the /v1 routes (read from each procedure's `meta.openapi`, the
 * source the OpenAPI document is generated from) and the type of every procedure (for
 * /api/trpc). The guards answer 404/405 and "needs credentials" from it, the REST adapter
 * dispatches the match the guards found, and openapi.test.ts checks it against the document.
 */
export interface RouteTable {
  /** Every /v1 route, in the router's declaration order. */
  readonly routes: readonly Route[];
  /** The route for the path and method; else the methods the path allows (405), or null (404). */
  match(path: string, method: string): RouteMatch | { allowed: string[] } | null;
  /** A procedure's type by its router path, for /api/trpc; undefined for no such procedure. */
  procedureType(name: string): ProcedureType | undefined;
}

function inputFields(procedure: AnyTRPCProcedure): Pick<Route, "takesInput" | "arrayFields" | "scalarFields"> {
  const inputs = procedure._def.inputs as ZodLike[];
  const input = inputs.length >= 2 ? inputs.reduce((merged, next) => merged.merge!(next)) : inputs[0];
  const schema = input ? unwrap(input, true) : undefined;
  const arrayFields: string[] = [];
  const scalarFields = new Map<string, ScalarKind>();
  if (schema && kind(schema) === "object") {
    for (const [name, field] of Object.entries(schema.shape ?? {})) {
      const outer = kind(field) === "optional" ? field.unwrap!() : field;
      if (kind(outer) === "array") arrayFields.push(name);
      const inner = kind(unwrap(field, false));
      if (inner === "number" || inner === "boolean" || inner === "bigint" || inner === "date") scalarFields.set(name, inner);
    }
  }
  return { takesInput: !["void", "undefined", "never"].includes(kind(schema) ?? ""), arrayFields, scalarFields };
}

export function createRouteTable(router: AnyRouter): RouteTable {
  const routes: Route[] = [];
  const types = new Map<string, ProcedureType>();
  // `_def.procedures` and a procedure's `_def` (type, meta, input parsers) as tRPC's exported types
  // declare them (docs/decisions/library-internals.md).
  for (const [name, procedure] of Object.entries(router._def.procedures as Record<string, AnyTRPCProcedure>)) {
    const type = procedure._def.type;
    types.set(name, type);
    const meta = procedure._def.meta as Meta | undefined;
    const openapi = meta?.openapi;
    if (!openapi || openapi.enabled === false || (type !== "query" && type !== "mutation")) continue;
    const template = `/${openapi.path.replace(/^\/|\/$/g, "")}`;
    const source = template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{([^}]+)\}/g, (_, param: string) => `(?<${param}>[^/]+)`);
    routes.push({
      method: openapi.method.toUpperCase(),
      template,
      pattern: new RegExp(`^${source}/?$`),
      procedure: name,
      type,
      needsCredentials: procedureTier(procedure).authenticated,
      successStatus: meta?.successStatus ?? 200,
      ndjson: ndjsonLineSchema(procedure) !== undefined,
      ...inputFields(procedure),
    });
  }
  const byMethod = new Map<string, Route[]>();
  for (const route of routes) byMethod.set(route.method, [...(byMethod.get(route.method) ?? []), route]);

  return {
    routes,
    match(path, method) {
      // The hot path: one regex pass over this method's routes, stopping at the first match.
      for (const route of byMethod.get(method) ?? []) {
        const found = route.pattern.exec(path);
        if (found) return { route, params: { ...found.groups } };
      }
      const allowed = new Set<string>();
      for (const route of routes) if (route.pattern.test(path)) allowed.add(route.method);
      return allowed.size ? { allowed: [...allowed] } : null;
    },
    procedureType: (name) => types.get(name),
  };
}

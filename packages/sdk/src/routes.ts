import type { paths } from "./openapi.js";

/**
 * Types derived from the generated document types (src/openapi.ts): which paths take which
 * method, and each operation's path parameters, query, body and success body. Nothing here
 * names a route: a route added to the API appears after `generate`.
 */

export type Method = "get" | "post" | "put" | "delete";

/** The operation object of `method` on `path`. */
export type Operation<P extends keyof paths, M extends Method> = paths[P] extends Record<M, infer O> ? O : never;

/** Every path that answers `method`, as written in the document (e.g. `/v1/transactions/{id}`). */
export type PathsFor<M extends Method> = {
  [P in keyof paths]: paths[P] extends Record<M, { responses: unknown }> ? P : never;
}[keyof paths];

type Parameters<O> = O extends { parameters: infer T } ? T : never;

type IsOptional<T, K extends PropertyKey> = T extends { [P in K]-?: unknown }
  ? Record<never, never> extends Pick<T, K & keyof T>
    ? true
    : false
  : true;

/** `{name: T}`, `{name?: T}` or `{name?: undefined}`, from a property of the document's types. */
type Slot<Holder, K extends PropertyKey, Name extends string> = [NonNullable<Holder extends { [P in K]?: infer T } ? T : never>] extends [
  never,
]
  ? { [P in Name]?: undefined }
  : IsOptional<Holder, K> extends true
    ? { [P in Name]?: NonNullable<Holder extends { [P in K]?: infer T } ? T : never> }
    : { [P in Name]: NonNullable<Holder extends { [P in K]?: infer T } ? T : never> };

type JsonContent<T> = T extends { content: { "application/json": infer B } } ? B : never;

type RequestBodySlot<O> = [NonNullable<O extends { requestBody?: infer R } ? R : never>] extends [never]
  ? { body?: undefined }
  : IsOptional<O, "requestBody"> extends true
    ? { body?: JsonContent<NonNullable<O extends { requestBody?: infer R } ? R : never>> }
    : { body: JsonContent<NonNullable<O extends { requestBody?: infer R } ? R : never>> };

/** What a call to `method` on `path` takes besides the path. */
export type RequestOptions<P extends keyof paths, M extends Method> = Slot<Parameters<Operation<P, M>>, "path", "path"> &
  Slot<Parameters<Operation<P, M>>, "query", "query"> &
  RequestBodySlot<Operation<P, M>> & {
    /** `X-Idempotency-Key`: generated for every POST when not given, and kept across its retries. */
    idempotencyKey?: string;
  };

type RequiredKeys<T> = { [K in keyof T]-?: Record<never, never> extends Pick<T, K> ? never : K }[keyof T];

/** The options argument, optional when nothing in it is required. */
export type OptionsArgument<T> = [RequiredKeys<T>] extends [never] ? [options?: T] : [options: T];

type SuccessStatus = 200 | 201 | 202 | 203 | 204 | 206;

type Responses<O> = O extends { responses: infer R } ? R : never;

/** The body of the operation's success answer (`undefined` for 204). */
export type SuccessBody<P extends keyof paths, M extends Method> = {
  [S in keyof Responses<Operation<P, M>> & SuccessStatus]: Responses<Operation<P, M>>[S] extends {
    content: { "application/json": infer B };
  }
    ? B
    : undefined;
}[keyof Responses<Operation<P, M>> & SuccessStatus];

/** The list key of a page body: the one array beside `page` (`vaults`, `transactions`, …). */
type ItemsOf<B> = { [K in keyof B]: K extends "page" ? never : B[K] extends readonly (infer I)[] ? I : never }[keyof B];

/** GET paths that answer one page of a list (CONTRACT §1: `{<items>: [...], page: {nextCursor, hasMore}}`). */
export type PaginatedPath = {
  [P in PathsFor<"get">]: SuccessBody<P, "get"> extends { page: { nextCursor: string | null } } ? P : never;
}[PathsFor<"get">];

/** One item of the list `path` answers. */
export type PageItem<P extends PaginatedPath> = ItemsOf<SuccessBody<P, "get">>;

/** `paginate` takes the list's path parameters and query, without the cursor it manages itself. */
export type PaginateOptions<P extends PaginatedPath> = Slot<Parameters<Operation<P, "get">>, "path", "path"> & {
  query?: Omit<NonNullable<Parameters<Operation<P, "get">> extends { query?: infer Q } ? Q : never>, "cursor">;
};

"use client";

import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useEffect, useRef, type FormEvent, type ReactNode } from "react";

/**
 * A list's filters kept in the address's query (`?status=COMPLETED&from=2026-11-01`), so a filtered
 * view can be bookmarked, shared and reloaded, and Back returns to the previous filter. Only the
 * `keys` given are read and written; an empty value removes its key. Pages using it render under
 * a `<Suspense>` (Next requires one around useSearchParams).
 */
export function useUrlFilters<Key extends string>(keys: readonly Key[]) {
  const router = useRouter();
  const pathname = usePathname();
  const params = useSearchParams();
  // The query last pushed, until the address shows it: two changes in a row (a select, then a
  // date, before the navigation commits) build on each other instead of the second undoing the first.
  const pushed = useRef<string | null>(null);
  useEffect(() => {
    pushed.current = null;
  }, [params]);
  const read = (query: URLSearchParams) => Object.fromEntries(keys.map((key) => [key, query.get(key) ?? ""])) as Record<Key, string>;
  const values = read(params);
  const write = (patch: Partial<Record<Key, string>>) => {
    const query = new URLSearchParams(pushed.current ?? params.toString());
    for (const key of keys) {
      const value = key in patch ? patch[key] : query.get(key);
      if (value) query.set(key, value);
      else query.delete(key);
    }
    const search = query.toString();
    pushed.current = search;
    router.push(search ? `${pathname}?${search}` : pathname, { scroll: false });
  };
  return {
    values,
    /** The filters as one string: a pager's resetKey. */
    key: keys.map((key) => `${key}=${values[key]}`).join("&"),
    active: keys.some((key) => values[key] !== ""),
    set: (patch: Partial<Record<Key, string>>) => write(patch),
    clear: () => write(Object.fromEntries(keys.map((key) => [key, ""])) as Record<Key, string>),
  };
}

/**
 * The filters above a list: a search landmark holding the fields, with "Clear filters" while one
 * is set. Selects apply as they change; text fields apply on Enter or the submit button (`onSubmit`).
 */
export function FilterBar({
  label,
  active,
  onClear,
  onSubmit,
  submitLabel = "Search",
  children,
}: {
  /** Names the landmark, e.g. "Filter transactions". */
  label: string;
  active: boolean;
  onClear: () => void;
  onSubmit?: () => void;
  /** The submit button's name; "Search" when omitted. */
  submitLabel?: string;
  children: ReactNode;
}) {
  function submit(event: FormEvent) {
    event.preventDefault();
    onSubmit?.();
  }
  return (
    <form role="search" aria-label={label} className="row filter-bar" onSubmit={submit}>
      {children}
      <div className="field filter-actions">
        {onSubmit && <button type="submit">{submitLabel}</button>}
        {active && (
          <button type="button" className="secondary" onClick={onClear}>
            Clear filters
          </button>
        )}
      </div>
    </form>
  );
}

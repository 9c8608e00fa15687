"use client";

import { useId, useState } from "react";

/** What a list may show a page at a time (CONTRACT §1 allows 1 to 200). */
export const PAGE_SIZES = [10, 25, 50, 100] as const;

/**
 * Cursor pagination (CONTRACT §1): the service only knows "the page after this cursor", so the
 * cursors of the pages already seen are kept, as a stack, to go back. `resetKey` names what the
 * pages are of (the filters, serialised): when it changes the stack starts again at page 1, so a
 * cursor of one filter is never sent with another.
 */
export function usePager(options: { resetKey?: string; pageSize?: number } = {}) {
  const resetKey = options.resetKey ?? "";
  const [state, setState] = useState<{ key: string; cursors: (string | undefined)[]; size: number }>({
    key: resetKey,
    cursors: [undefined],
    size: options.pageSize ?? 25,
  });
  // Derived during render: the filters moved on, so the stack is the first page's again.
  const cursors = state.key === resetKey ? state.cursors : [undefined];
  const update = (change: (cursors: (string | undefined)[]) => (string | undefined)[], size = state.size) =>
    setState({ key: resetKey, cursors: change(cursors), size });
  return {
    cursor: cursors[cursors.length - 1],
    page: cursors.length,
    pageSize: state.size,
    next: (nextCursor: string | null) => nextCursor && update((all) => [...all, nextCursor]),
    previous: () => update((all) => (all.length > 1 ? all.slice(0, -1) : all)),
    reset: () => update(() => [undefined]),
    /** Another page size starts again at page 1 (a cursor is a position, but page numbers would lie). */
    setPageSize: (size: number) => update(() => [undefined], size),
  };
}

export function Pager({
  pager,
  page,
  pageSizes,
}: {
  pager: ReturnType<typeof usePager>;
  page: { nextCursor: string | null; hasMore: boolean } | undefined;
  /** Offer these page sizes ("Rows per page"); none offered when omitted. */
  pageSizes?: readonly number[];
}) {
  const sizeId = useId();
  return (
    <nav className="pager" aria-label="Pages">
      <button type="button" className="secondary" onClick={pager.previous} disabled={pager.page === 1}>
        Previous page
      </button>
      <span className="muted" aria-live="polite" data-testid="page-number">
        Page {pager.page}
      </span>
      <button type="button" className="secondary" onClick={() => pager.next(page?.nextCursor ?? null)} disabled={!page?.hasMore}>
        Next page
      </button>
      {pageSizes && (
        <span className="pager-size">
          <label htmlFor={sizeId}>Rows per page</label>{" "}
          <select id={sizeId} value={pager.pageSize} onChange={(e) => pager.setPageSize(Number(e.target.value))}>
            {pageSizes.map((size) => (
              <option key={size} value={size}>
                {size}
              </option>
            ))}
          </select>
        </span>
      )}
    </nav>
  );
}

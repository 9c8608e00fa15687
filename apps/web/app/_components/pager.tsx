"use client";

import { useState } from "react";

/**
 * Cursor pagination (CONTRACT §1): the service only knows "the page after this cursor", so the
 * cursors of the pages already seen are kept to go back.
 */
export function usePager() {
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursors[cursors.length - 1];
  return {
    cursor,
    page: cursors.length,
    next: (nextCursor: string | null) => nextCursor && setCursors((all) => [...all, nextCursor]),
    previous: () => setCursors((all) => (all.length > 1 ? all.slice(0, -1) : all)),
    reset: () => setCursors([undefined]),
  };
}

export function Pager({
  pager,
  page,
}: {
  pager: ReturnType<typeof usePager>;
  page: { nextCursor: string | null; hasMore: boolean } | undefined;
}) {
  return (
    <nav className="pager" aria-label="Pages">
      <button type="button" className="secondary" onClick={pager.previous} disabled={pager.page === 1}>
        Previous page
      </button>
      <span className="muted">Page {pager.page}</span>
      <button type="button" className="secondary" onClick={() => pager.next(page?.nextCursor ?? null)} disabled={!page?.hasMore}>
        Next page
      </button>
    </nav>
  );
}

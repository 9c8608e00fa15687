/** A timestamp in the reader's locale, the exact RFC 3339 value on hover. */
export function Time({ at }: { at: string | null | undefined }) {
  if (!at) return <span className="muted">—</span>;
  return (
    <time dateTime={at} title={at}>
      {new Date(at).toLocaleString()}
    </time>
  );
}

/** When a failed delivery or job is tried again, under its status; nothing when none is planned. */
export function NextAttempt({ at }: { at: string | null }) {
  if (!at) return null;
  return (
    <div className="small muted">
      next attempt <Time at={at} />
    </div>
  );
}

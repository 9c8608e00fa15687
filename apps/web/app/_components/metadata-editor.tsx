"use client";

/** Vault metadata as rows of key and value (CONTRACT §4: ≤ 50 keys of ≤ 40 characters, values ≤ 500). */
export type MetadataRow = { key: string; value: string };

export function toRows(metadata: Record<string, string>): MetadataRow[] {
  return Object.entries(metadata).map(([key, value]) => ({ key, value }));
}

export function toMetadata(rows: MetadataRow[]): Record<string, string> {
  return Object.fromEntries(rows.filter((row) => row.key.trim() !== "").map((row) => [row.key.trim(), row.value]));
}

export function MetadataEditor({
  rows,
  onChange,
  error,
}: {
  rows: MetadataRow[];
  onChange: (rows: MetadataRow[]) => void;
  error?: string | undefined;
}) {
  const update = (index: number, patch: Partial<MetadataRow>) => onChange(rows.map((row, i) => (i === index ? { ...row, ...patch } : row)));
  return (
    <fieldset className={`field${error ? " has-error" : ""}`}>
      <legend>Metadata</legend>
      {rows.length === 0 && <p className="muted small">No metadata. Add string keys and values, e.g. desk = treasury.</p>}
      {rows.map((row, index) => (
        <div className="row" key={index}>
          <div className="field">
            <label htmlFor={`meta-key-${index}`}>Key {index + 1}</label>
            <input id={`meta-key-${index}`} value={row.key} maxLength={40} onChange={(e) => update(index, { key: e.target.value })} />
          </div>
          <div className="field">
            <label htmlFor={`meta-value-${index}`}>Value {index + 1}</label>
            <input
              id={`meta-value-${index}`}
              value={row.value}
              maxLength={500}
              onChange={(e) => update(index, { value: e.target.value })}
            />
          </div>
          <div className="field">
            <button type="button" className="secondary small" onClick={() => onChange(rows.filter((_, i) => i !== index))}>
              Remove entry {index + 1}
            </button>
          </div>
        </div>
      ))}
      <button
        type="button"
        className="secondary small"
        onClick={() => onChange([...rows, { key: "", value: "" }])}
        disabled={rows.length >= 50}
      >
        Add metadata entry
      </button>
      {error && (
        <div className="field-error" role="alert">
          {error}
        </div>
      )}
    </fieldset>
  );
}

"use client";

import { useEffect, useState } from "react";

interface Operation {
  summary?: string;
  description?: string;
  "x-scope"?: string;
  "x-value-moving"?: boolean;
  responses?: Record<string, { description?: string }>;
}
type Document = { info: { title: string; version: string }; paths: Record<string, Record<string, Operation>> };

export function ApiReference() {
  const [doc, setDoc] = useState<Document | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => {
    fetch("/v1/openapi.json")
      .then((r) => (r.ok ? r.json() : Promise.reject(new Error(`HTTP ${r.status}`))))
      .then((d: Document) => setDoc(d))
      .catch((e: Error) => setFailure(e.message));
  }, []);
  if (failure) return <p role="alert">Could not load the API document: {failure}</p>;
  if (!doc) return <p>Loading…</p>;
  const rows = Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ path, method, op })));
  return (
    <table data-testid="api-operations">
      <thead>
        <tr><th>Method</th><th>Path</th><th>Summary</th><th>Scope</th><th>Responses</th></tr>
      </thead>
      <tbody>
        {rows.map(({ path, method, op }) => (
          <tr key={`${method} ${path}`}>
            <td className="method">{method}</td>
            <td><code>{path}</code></td>
            <td>{op.summary ?? ""}{op["x-value-moving"] ? " (value-moving)" : ""}</td>
            <td>{op["x-scope"] ?? "public"}</td>
            <td>{Object.keys(op.responses ?? {}).join(", ")}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

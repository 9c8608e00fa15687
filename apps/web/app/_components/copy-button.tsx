"use client";

import { useState } from "react";

/** Copies a value; says so for sighted and screen-reader users alike. */
export function CopyButton({ value, label = "Copy" }: { value: string; label?: string }) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setState("copied");
    } catch {
      setState("failed");
    }
    setTimeout(() => setState("idle"), 2500);
  }
  return (
    <>
      <button type="button" className="secondary small" onClick={() => void copy()}>
        {label}
      </button>
      <span role="status" aria-live="polite" className="small muted">
        {state === "copied" ? " Copied" : state === "failed" ? " Copy failed: select the text and copy it by hand" : ""}
      </span>
    </>
  );
}

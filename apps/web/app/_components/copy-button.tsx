"use client";

import { useState } from "react";

/** Copies a value; says so for sighted and screen-reader users alike. */
export function CopyButton({
  value,
  label = "Copy",
  accessibleName,
  className,
}: {
  value: string;
  label?: string;
  /** A fuller name for screen readers; it starts with `label`, so the visible words still name it. */
  accessibleName?: string;
  className?: string;
}) {
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
      <button
        type="button"
        className={`secondary small${className ? ` ${className}` : ""}`}
        aria-label={accessibleName}
        onClick={() => void copy()}
      >
        {label}
      </button>
      <span role="status" aria-live="polite" className="small muted">
        {state === "copied" ? " Copied" : state === "failed" ? " Copy failed: select the text and copy it by hand" : ""}
      </span>
    </>
  );
}

"use client";

import { useId, useState, type KeyboardEvent, type ReactNode, type SelectHTMLAttributes } from "react";
import { addPicked, resolvePick, type PickOption } from "../../src/dashboard/pick";
import { SelectField } from "./field";

export type { PickOption } from "../../src/dashboard/pick";

/**
 * Several of a kind (wallets, vaults, assets, addresses) picked by name: the chosen ones listed,
 * each with its Remove button, and one text box to add another, suggesting the options as you
 * type (a native datalist). Enter or Add takes what the box names (`resolvePick`): an option by
 * its name, symbol or address, or a pasted id (or several, one per line) for power users, kept
 * even when the list does not hold it. Keyboard only: Tab to the box, type, Enter; Tab to a
 * Remove button, Space.
 */
export function PickMany({
  legend,
  noun,
  options,
  value,
  onChange,
  accepts,
  anyMeans,
  error,
  hint,
  disabled,
}: {
  legend: string;
  /** One of what is picked, for messages: "wallet". */
  noun: string;
  options: readonly PickOption[];
  value: readonly string[];
  onChange: (next: string[]) => void;
  /** Whether a pasted value has the shape the API takes (an id, an address). */
  accepts: (value: string) => boolean;
  /** What an empty list means to the API: "any wallet". */
  anyMeans: string;
  error?: string | undefined;
  hint?: ReactNode;
  disabled?: boolean;
}) {
  const id = useId();
  const [text, setText] = useState("");
  const [problem, setProblem] = useState<string | undefined>();
  const labelOf = (v: string) => options.find((o) => o.value.toLowerCase() === v.toLowerCase())?.label ?? `${v} (not in the list)`;
  const offered = options.filter((o) => !value.some((v) => v.toLowerCase() === o.value.toLowerCase()));

  function add(from = text) {
    const picked = resolvePick(from, offered.length ? offered : options, accepts, noun);
    if (!picked.ok) return setProblem(picked.message);
    setProblem(undefined);
    setText("");
    onChange(addPicked(value, picked.values));
  }
  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    // Enter adds to the list instead of submitting the form around it.
    if (event.key !== "Enter") return;
    event.preventDefault();
    add();
  }
  const message = problem ?? error;
  const described = [hint ? `${id}-hint` : "", message ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined;

  return (
    <fieldset className={`field picker${message ? " has-error" : ""}`} data-testid="pick-many" data-legend={legend}>
      <legend>{legend}</legend>
      {value.length > 0 ? (
        <ul className="picked" aria-label={`${legend} chosen`}>
          {value.map((v) => (
            <li key={v} data-value={v}>
              <span>{labelOf(v)}</span>{" "}
              {!disabled && (
                <button
                  type="button"
                  className="secondary small"
                  aria-label={`Remove ${labelOf(v)} from ${legend.toLowerCase()}`}
                  onClick={() => onChange(value.filter((other) => other !== v))}
                >
                  Remove
                </button>
              )}
            </li>
          ))}
        </ul>
      ) : (
        <p className="hint">None chosen: {anyMeans}.</p>
      )}
      {!disabled && (
        <div className="picker-add">
          <label htmlFor={id}>Add to {legend.toLowerCase()}</label>
          <div className="actions">
            <input
              id={id}
              list={`${id}-options`}
              value={text}
              autoComplete="off"
              spellCheck={false}
              placeholder="Name, or paste an id"
              aria-invalid={message ? true : undefined}
              aria-describedby={described}
              onKeyDown={onKeyDown}
              onChange={(event) => {
                setText(event.target.value);
                setProblem(undefined);
                // A suggestion chosen from the list (not typed) is added at once.
                const native = event.nativeEvent;
                const chosen = !(native instanceof InputEvent) || native.inputType === "insertReplacementText";
                if (chosen && offered.some((o) => o.label === event.target.value)) add(event.target.value);
              }}
            />
            <datalist id={`${id}-options`}>
              {offered.map((o) => (
                <option key={o.value} value={o.label} />
              ))}
            </datalist>
            <button type="button" className="secondary small" onClick={() => add()}>
              Add
            </button>
          </div>
        </div>
      )}
      {hint && (
        <div className="hint" id={`${id}-hint`}>
          {hint}
        </div>
      )}
      {message && (
        <div className="field-error" id={`${id}-error`} role="alert">
          {message}
        </div>
      )}
    </fieldset>
  );
}

/**
 * One of a kind, from a native select: the options by name, a first line saying what to do, and
 * a value the list does not hold (an id from the URL, a wallet archived since) kept as its own
 * line so it is neither lost nor silently replaced.
 */
export function PickOne({
  label,
  options,
  value,
  onPick,
  placeholder,
  error,
  hint,
  ...select
}: {
  label: string;
  options: readonly PickOption[];
  value: string;
  onPick: (value: string) => void;
  placeholder: string;
  error?: string | undefined;
  hint?: ReactNode;
} & Omit<SelectHTMLAttributes<HTMLSelectElement>, "value" | "onChange">) {
  return (
    <SelectField label={label} value={value} onChange={(e) => onPick(e.target.value)} error={error} hint={hint} {...select}>
      <option value="">{placeholder}</option>
      {options.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
      {value && !options.some((o) => o.value === value) && <option value={value}>{value}</option>}
    </SelectField>
  );
}

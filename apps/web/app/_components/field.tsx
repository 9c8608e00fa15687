"use client";

import { useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes, type TextareaHTMLAttributes } from "react";
import type { NetworkCode } from "../../src/dashboard/router-types";
import { NETWORKS, NETWORK_NAMES } from "../../src/dashboard/vocabulary";

interface FieldFrame {
  label: string;
  /** The API's message for this field (VALIDATION_FAILED details, or a field-specific error). */
  error?: string | undefined;
  hint?: ReactNode;
}

/** One labelled control with its hint and its error, tied together for assistive technology. */
function Frame({ id, label, error, hint, children }: FieldFrame & { id: string; children: ReactNode }) {
  return (
    <div className={`field${error ? " has-error" : ""}`}>
      <label htmlFor={id}>{label}</label>
      {children}
      {hint && (
        <div className="hint" id={`${id}-hint`}>
          {hint}
        </div>
      )}
      {error && (
        <div className="field-error" id={`${id}-error`} role="alert">
          {error}
        </div>
      )}
    </div>
  );
}

function describedBy(id: string, { error, hint }: FieldFrame) {
  return [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined;
}

export function TextField({ label, error, hint, ...input }: FieldFrame & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  return (
    <Frame id={id} label={label} error={error} hint={hint}>
      <input id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy(id, { label, error, hint })} {...input} />
    </Frame>
  );
}

/** A password being chosen (signup, accepting an invitation): labelled Password, with the service's length rule as its hint. */
export function NewPasswordField(props: Omit<FieldFrame, "label" | "hint"> & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <TextField
      label="Password"
      name="password"
      type="password"
      autoComplete="new-password"
      required
      hint="12 to 256 characters. A passphrase of a few unrelated words works well."
      {...props}
    />
  );
}

/** An address to send to or to list: typed as the API takes it, its format as the hint unless another is given. */
export function AddressField({ hint, ...props }: Omit<FieldFrame, "hint"> & { hint?: ReactNode } & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <TextField
      spellCheck={false}
      autoComplete="off"
      placeholder="0x…"
      hint={hint ?? "40 hex digits, with or without 0x; mixed case must pass the EIP-55 checksum."}
      {...props}
    />
  );
}

export function TextAreaField({ label, error, hint, ...input }: FieldFrame & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const id = useId();
  return (
    <Frame id={id} label={label} error={error} hint={hint}>
      <textarea id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy(id, { label, error, hint })} {...input} />
    </Frame>
  );
}

export function SelectField({ label, error, hint, children, ...select }: FieldFrame & SelectHTMLAttributes<HTMLSelectElement>) {
  const id = useId();
  return (
    <Frame id={id} label={label} error={error} hint={hint}>
      <select id={id} aria-invalid={error ? true : undefined} aria-describedby={describedBy(id, { label, error, hint })} {...select}>
        {children}
      </select>
    </Frame>
  );
}

/** The network a form is about, labelled Network: each of the contract's codes with its chain id. */
export function NetworkField({
  value,
  onChange,
  error,
}: {
  value: NetworkCode;
  onChange: (network: NetworkCode) => void;
  error?: string | undefined;
}) {
  return (
    <SelectField label="Network" value={value} onChange={(e) => onChange(e.target.value as NetworkCode)} error={error}>
      {NETWORKS.map((n) => (
        <option key={n} value={n}>
          {NETWORK_NAMES[n]}
        </option>
      ))}
    </SelectField>
  );
}

/** A group of checkboxes under one visible legend. */
export function CheckboxGroup<T extends string>({
  legend,
  options,
  value,
  onChange,
  error,
  hint,
}: {
  legend: string;
  options: readonly { value: T; label: string }[];
  value: readonly T[];
  onChange: (next: T[]) => void;
  error?: string | undefined;
  hint?: ReactNode;
}) {
  return (
    <fieldset className={`field checkboxes${error ? " has-error" : ""}`}>
      <legend>{legend}</legend>
      {options.map((option) => (
        <label key={option.value} className="checkbox">
          <input
            type="checkbox"
            checked={value.includes(option.value)}
            onChange={(event) => onChange(event.target.checked ? [...value, option.value] : value.filter((v) => v !== option.value))}
          />{" "}
          {option.label}
        </label>
      ))}
      {hint && <div className="hint">{hint}</div>}
      {error && (
        <div className="field-error" role="alert">
          {error}
        </div>
      )}
    </fieldset>
  );
}

/** Form-level errors: the API's message when it is not about one field. */
export function FormError({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <div className="notice error" role="alert">
      {message}
    </div>
  );
}

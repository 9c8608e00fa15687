/**
 * What a picker's text box turns into: the id (or address) of the one option the text names, or
 * what was pasted when it has the shape of an id the API takes. Pure, so the rule is tested once
 * and every picker behaves alike.
 */
export interface PickOption {
  /** What is stored: an id, or an address. */
  value: string;
  /** What a person reads: a name, with what tells it apart (`Operations · 0x4f6a…`). */
  label: string;
  /** Other words that name the option on their own: a symbol, a name, an address. */
  keys?: readonly string[];
}

export type Picked = { ok: true; values: string[] } | { ok: false; message: string };

const fold = (text: string) => text.trim().toLowerCase();

/** The option a text names, by its value, its label or one of its keys; then by a unique part of its label. */
function optionNamed(text: string, options: readonly PickOption[]): PickOption | PickOption[] {
  const t = fold(text);
  const exact = (candidates: PickOption[]) => (candidates.length === 1 ? candidates[0]! : candidates);
  const byValue = options.filter((o) => fold(o.value) === t);
  if (byValue.length) return byValue[0]!;
  const byName = options.filter((o) => fold(o.label) === t || (o.keys ?? []).some((k) => fold(k) === t));
  if (byName.length) return exact(byName);
  return exact(options.filter((o) => fold(o.label).includes(t) || (o.keys ?? []).some((k) => fold(k).includes(t))));
}

/**
 * `text` as the values it picks. A name (or a unique part of one) picks its option; a pasted
 * value `accepts` takes is kept as is, even when no option lists it (an id from another page, a
 * wallet beyond the first page); several pasted values, split by spaces, commas or lines, are
 * taken together when every one is accepted.
 */
export function resolvePick(text: string, options: readonly PickOption[], accepts: (value: string) => boolean, noun: string): Picked {
  const t = text.trim();
  if (!t) return { ok: false, message: `type a ${noun}'s name, or paste its id` };
  const parts = t.split(/[\s,;]+/).filter(Boolean);
  if (parts.length > 1 && parts.every(accepts)) return { ok: true, values: parts };
  const named = optionNamed(t, options);
  if (!Array.isArray(named)) return { ok: true, values: [named.value] };
  if (accepts(t)) return { ok: true, values: [t] };
  if (named.length > 1) return { ok: false, message: `${named.length} match "${t}": type more of the name, or paste the id` };
  return { ok: false, message: `no ${noun} matches "${t}"` };
}

/** Appends without repeating (ids compared without case: the API's are lower case, a paste may not be). */
export function addPicked(current: readonly string[], values: readonly string[]): string[] {
  const next = [...current];
  for (const value of values) if (!next.some((v) => fold(v) === fold(value))) next.push(value);
  return next;
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const ADDRESS = /^(0x)?[0-9a-fA-F]{40}$/;
export const isUuid = (value: string) => UUID.test(value);
export const isAddress = (value: string) => ADDRESS.test(value);

"use client";

import { CopyButton } from "./copy-button";

/** A secret the service shows once: copy it now, it cannot be shown again. */
export function SecretOnce({
  title,
  secret,
  onDone,
  children,
}: {
  title: string;
  secret: string;
  onDone: () => void;
  children?: React.ReactNode;
}) {
  return (
    <section className="secret-once" role="region" aria-label={title}>
      <h3>{title}</h3>
      <p className="notice warning">
        <strong>Copy this secret now.</strong> It is shown only once: the service keeps only a hash of it and cannot show it again. If you
        lose it, rotate or revoke it and make a new one.
      </p>
      {children}
      <p>
        <code className="secret" data-testid="secret-value">
          {secret}
        </code>{" "}
        <CopyButton value={secret} label="Copy secret" />
      </p>
      <button type="button" onClick={onDone}>
        I have stored the secret
      </button>
    </section>
  );
}

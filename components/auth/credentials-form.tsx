"use client";

import { useState, type FormEvent, type ReactNode } from "react";
import { Button, Notice, TextField } from "@/components/ui";

export interface CredentialsValues {
  name: string;
  email: string;
  password: string;
}

/**
 * Email and password (and a name when an account is made). `onSubmit` throws with a message a
 * person can act on; it is shown above the button.
 */
export function CredentialsForm({
  withName,
  submitLabel,
  onSubmit,
  footer,
}: {
  withName: boolean;
  submitLabel: string;
  onSubmit: (values: CredentialsValues) => Promise<void>;
  footer?: ReactNode;
}) {
  const [values, setValues] = useState<CredentialsValues>({ name: "", email: "", password: "" });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const set = (key: keyof CredentialsValues) => (event: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [key]: event.target.value }));

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await onSubmit(values);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
      {withName && (
        <TextField label="Name" name="name" autoComplete="name" required value={values.name} onChange={set("name")} />
      )}
      <TextField
        label="Email"
        name="email"
        type="email"
        autoComplete="email"
        required
        value={values.email}
        onChange={set("email")}
      />
      <TextField
        label="Password"
        name="password"
        type="password"
        autoComplete={withName ? "new-password" : "current-password"}
        required
        hint={withName ? "At least 10 characters." : undefined}
        value={values.password}
        onChange={set("password")}
      />
      {error && (
        <Notice tone="danger" title="That did not work">
          {error}
        </Notice>
      )}
      <Button type="submit" variant="primary" loading={busy}>
        {submitLabel}
      </Button>
      {footer}
    </form>
  );
}

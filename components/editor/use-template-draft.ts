"use client";

import { useEffect, useMemo, useState } from "react";
import { deepEqual } from "./deep-equal";
import { browserStorage, createDraftStore, type StoredDraft } from "./draft-storage";
import { formatTemplate, parseTemplateText, textDiffersFrom, type ParsedText } from "./template-text";
import type { EditorBase } from "./types";

export interface TemplateDraft {
  /** The JSON view's text, as typed. */
  text: string;
  /** The last template that parsed: what the form shows and validation checks. */
  value: unknown;
  parsed: ParsedText;
  message: string;
  /** Whether there is anything to commit (a syntax error counts: it is an unfinished edit). */
  dirty: boolean;
  /** The stored draft this session started from, until dismissed. */
  restored: StoredDraft | null;
  setText(text: string): void;
  setValue(value: unknown): void;
  setMessage(message: string): void;
  discard(): void;
  dismissRestored(): void;
}

/**
 * The editor's working copy of one variant's template, kept in localStorage while it differs from
 * `base`, so a reload (or a crash) loses nothing. Mount it once per base revision.
 */
export function useTemplateDraft(variantId: string, base: EditorBase): TemplateDraft {
  const store = useMemo(() => createDraftStore(browserStorage()), []);
  const [initial] = useState(() => {
    const stored = store.read(variantId);
    if (stored && textDiffersFrom(stored.text, base.template))
      return { stored, text: stored.text, message: stored.message };
    return { stored: null, text: formatTemplate(base.template), message: "" };
  });
  const [text, setTextState] = useState(initial.text);
  const [message, setMessage] = useState(initial.message);
  const [restored, setRestored] = useState<StoredDraft | null>(initial.stored);
  const parsed = useMemo(() => parseTemplateText(text), [text]);
  const [value, setValueState] = useState<unknown>(() => (parsed.ok ? parsed.value : base.template));
  const dirty = !parsed.ok || !deepEqual(parsed.value, base.template);

  useEffect(() => {
    if (!dirty) return store.clear(variantId);
    store.write(variantId, {
      baseRevisionId: base.revisionId,
      baseVersion: base.version,
      text,
      message,
      savedAt: new Date().toISOString(),
    });
  }, [store, variantId, base.revisionId, base.version, text, message, dirty]);

  return {
    text,
    value,
    parsed,
    message,
    dirty,
    restored,
    setText(next) {
      setTextState(next);
      const result = parseTemplateText(next);
      if (result.ok) setValueState(result.value);
    },
    setValue(next) {
      setValueState(next);
      setTextState(formatTemplate(next));
    },
    setMessage,
    discard() {
      store.clear(variantId);
      setTextState(formatTemplate(base.template));
      setValueState(base.template);
      setMessage("");
      setRestored(null);
    },
    dismissRestored: () => setRestored(null),
  };
}

// The app's own prompt, confirm and alert, in place of the browser's window.prompt/confirm/alert (which block the
// page, cannot be styled or translated, and are refused in some embedded browsers): a screen calls
// `const dialogs = useDialogs()`, awaits `dialogs.prompt(...)`, `dialogs.confirm(...)` or `dialogs.alert(...)`, and
// renders `dialogs.element` once.
import { useCallback, useMemo, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from './Dialog';

type Open =
  | { kind: 'prompt'; title: string; label: string; value: string; submit: string; resolve: (v: string | null) => void }
  | { kind: 'confirm'; title: string; text: string; submit: string; danger: boolean; resolve: (v: boolean) => void }
  | { kind: 'alert'; title: string; text: string; resolve: () => void };

export interface Dialogs {
  /** The trimmed text entered, or null when cancelled (an empty text cannot be submitted). */
  prompt: (o: { title: string; label: string; value?: string; submit?: string }) => Promise<string | null>;
  /** Whether the person confirmed. */
  confirm: (o: { title?: string; text: string; submit?: string; danger?: boolean }) => Promise<boolean>;
  alert: (o: { title?: string; text: string }) => Promise<void>;
  /** Render this once in the screen. */
  element: ReactNode;
}

export function useDialogs(): Dialogs {
  const { t } = useTranslation();
  const [open, setOpen] = useState<Open | null>(null);
  const [value, setValue] = useState('');
  const openRef = useRef<Open | null>(null);
  const show = useCallback((o: Open | null) => {
    openRef.current = o;
    setOpen(o);
  }, []);

  const close = useCallback(() => {
    const o = openRef.current;
    show(null);
    if (!o) return;
    if (o.kind === 'prompt') o.resolve(null);
    else if (o.kind === 'confirm') o.resolve(false);
    else o.resolve();
  }, [show]);

  const prompt = useCallback<Dialogs['prompt']>(
    (o) =>
      new Promise((resolve) => {
        setValue(o.value ?? '');
        show({
          kind: 'prompt',
          title: o.title,
          label: o.label,
          value: o.value ?? '',
          submit: o.submit ?? t('hierarchy.ok'),
          resolve,
        });
      }),
    [show, t],
  );
  const confirm = useCallback<Dialogs['confirm']>(
    (o) =>
      new Promise((resolve) =>
        show({
          kind: 'confirm',
          title: o.title ?? t('hierarchy.confirmTitle'),
          text: o.text,
          submit: o.submit ?? t('hierarchy.ok'),
          danger: o.danger ?? false,
          resolve,
        }),
      ),
    [show, t],
  );
  const alert = useCallback<Dialogs['alert']>(
    (o) =>
      new Promise((resolve) =>
        show({ kind: 'alert', title: o.title ?? t('hierarchy.alertTitle'), text: o.text, resolve }),
      ),
    [show, t],
  );

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const o = openRef.current;
    if (!o) return;
    show(null);
    if (o.kind === 'prompt') o.resolve(value.trim());
    else if (o.kind === 'confirm') o.resolve(true);
    else o.resolve();
  };

  const element = open && (
    <Dialog title={open.title} onClose={close} testId={`dialog-${open.kind}`}>
      <form onSubmit={submit}>
        {open.kind === 'prompt' ? (
          <label>
            {open.label}
            <input name="dialog-value" autoFocus value={value} onChange={(e) => setValue(e.target.value)} />
          </label>
        ) : (
          <p>{open.text}</p>
        )}
        <div className="row dialog-actions">
          <button
            type="submit"
            className={open.kind === 'confirm' && open.danger ? 'danger' : 'primary'}
            disabled={open.kind === 'prompt' && value.trim() === ''}
            data-testid="dialog-submit"
          >
            {open.kind === 'alert' ? t('hierarchy.ok') : open.submit}
          </button>
          {open.kind !== 'alert' && (
            <button type="button" className="link" onClick={close} data-testid="dialog-cancel">
              {t('hierarchy.cancel')}
            </button>
          )}
        </div>
      </form>
    </Dialog>
  );

  return useMemo(() => ({ prompt, confirm, alert, element }), [prompt, confirm, alert, element]);
}

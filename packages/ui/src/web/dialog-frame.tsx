import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

/** A modal `<dialog>`: focus stays inside, Escape closes it. */
export function DialogFrame(props: {
  title: string;
  onClose: () => void;
  children: ComponentChildren;
  wide?: boolean;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog === null) return;
    if (!dialog.open) dialog.showModal();
    // The field the user came to fill in, rather than the close button.
    dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    const close = () => props.onClose();
    dialog.addEventListener('close', close);
    return () => dialog.removeEventListener('close', close);
  }, []);
  return (
    <dialog ref={ref} class={props.wide ? 'dialog wide' : 'dialog'} aria-label={props.title}>
      <header class="dialog-head">
        <h2>{props.title}</h2>
        <button type="button" class="ghost" aria-label="Close" onClick={() => ref.current?.close()}>
          ×
        </button>
      </header>
      {props.children}
    </dialog>
  );
}

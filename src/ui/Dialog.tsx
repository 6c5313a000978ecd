import { useEffect, useRef, type ReactNode } from 'react';
// Its own module: a dialog needs none of the panels' other icons.
import CloseIcon from 'lucide-react/icons/x';
import './ui.css';

/**
 * A modal dialog on the platform's `<dialog>`: it takes focus when it opens (the control marked
 * `data-autofocus`, else the first), keeps it inside, closes on Esc and gives focus back to what
 * opened it.
 */
export function Dialog({ title, onClose, children, wide = false }: { title: string; onClose: () => void; children: ReactNode; wide?: boolean }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!dialog.open) dialog.showModal();
    // The platform focuses the first control; a dialog names a better one with `data-autofocus`.
    dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    return () => {
      dialog.close();
      if (opener?.isConnected) opener.focus();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      className={`dialog${wide ? ' wide' : ''}`}
      aria-label={title}
      onCancel={(event) => {
        // Esc: closed through React, so the dialog's state and the DOM agree.
        event.preventDefault();
        onClose();
      }}
      onClick={(event) => {
        // A click on the backdrop (the dialog element itself, outside its box) closes it.
        if (event.target === event.currentTarget) {
          const box = event.currentTarget.getBoundingClientRect();
          if (event.clientX < box.left || event.clientX > box.right || event.clientY < box.top || event.clientY > box.bottom) onClose();
        }
      }}
    >
      <div className="dialog-head">
        <h2>{title}</h2>
        <button type="button" className="icon-button" onClick={onClose} aria-label={`Close ${title}`} title="Close (Esc)">
          <CloseIcon size={16} aria-hidden="true" />
        </button>
      </div>
      {children}
    </dialog>
  );
}

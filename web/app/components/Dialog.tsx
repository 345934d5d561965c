import { useEffect, useRef } from "react";
import { createPortal } from "react-dom";
import { Icon } from "./Icon";
import "./Dialog.css";

export type CloseReason = "escape" | "backdrop" | "button";

type DialogProps = {
  open: boolean;
  onClose: (reason: CloseReason) => void;
  /** The dialog's accessible name; or give labelledBy, the id of its heading. */
  label?: string;
  labelledBy?: string;
  className?: string;
  closeLabel?: string;
  children: React.ReactNode;
};

// A modal built on the native <dialog>: the browser keeps focus inside it
// and makes the page behind it inert. Focus returns to the control that
// opened it. A click on the backdrop closes it; a click inside does not.
// It is rendered at the end of <body>, so it never takes the styles of the
// section whose button opened it (the Bespoke page's coloured band did).
export function Dialog({ open, onClose, label, labelledBy, className, closeLabel = "Close", children }: DialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const returnFocusTo = useRef<HTMLElement | null>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      returnFocusTo.current = document.activeElement as HTMLElement | null;
      dialog.showModal();
    } else if (!open && dialog.open) {
      dialog.close();
      returnFocusTo.current?.focus();
    }
  }, [open]);

  return createPortal(
    <dialog
      ref={ref}
      className={className ? `dialog ${className}` : "dialog"}
      aria-label={label}
      aria-labelledby={labelledBy}
      onCancel={(event) => {
        event.preventDefault(); // the parent decides, so its state stays the truth
        onClose("escape");
      }}
      onClick={(event) => {
        if (event.target === event.currentTarget) onClose("backdrop");
      }}
    >
      <div className="dialog__body">
        <button type="button" className="icon-button dialog__close" aria-label={closeLabel} onClick={() => onClose("button")}>
          <Icon name="close" />
        </button>
        {children}
      </div>
    </dialog>,
    document.body,
  );
}

import clsx from 'clsx';
import { Tooltip } from 'radix-ui';
import { type ComponentPropsWithoutRef, forwardRef, type ReactElement, type ReactNode, useContext } from 'react';
import { ChatEscape } from './chat-escape';
import shared from './shared.module.css';
import styles from './TooltipButton.module.css';

/**
 * A tooltip above one control (a button or a link), in the chat's one tooltip group (`TooltipProvider`). It opens by
 * itself when the control gets the keyboard focus, so the Escape it takes also goes on to the chat (`ChatEscape`):
 * one press closes the chat from any control, as it does from the composer.
 */
export function WithTooltip({ tooltip, children }: { tooltip: string; children: ReactElement }): ReactNode {
  const chatEscape = useContext(ChatEscape);
  return (
    <Tooltip.Root>
      <Tooltip.Trigger asChild>{children}</Tooltip.Trigger>
      <Tooltip.Portal>
        <Tooltip.Content
          className={styles.tooltip}
          side="top"
          sideOffset={4}
          onEscapeKeyDown={(event) => chatEscape?.(event)}
        >
          {tooltip}
        </Tooltip.Content>
      </Tooltip.Portal>
    </Tooltip.Root>
  );
}

type Props = ComponentPropsWithoutRef<'button'> & { tooltip: string };

/** An icon button named by its tooltip (spec section 2's tooltip list); primitives pass their behaviour through asChild. */
export const TooltipButton = forwardRef<HTMLButtonElement, Props>(function TooltipButton(
  { tooltip, className, children, ...rest },
  ref,
) {
  return (
    <WithTooltip tooltip={tooltip}>
      <button type="button" aria-label={tooltip} {...rest} ref={ref} className={clsx(shared.iconButton, className)}>
        {children}
      </button>
    </WithTooltip>
  );
});

/**
 * Spec section 9: tooltips open after 700 ms, and at once for 300 ms after another one closed. One provider holds the
 * whole chat (header, messages, composer), so the pointer moving from one icon to its neighbour swaps the tooltip at
 * once instead of closing it and waiting the delay again; a tooltip is not hoverable, so it closes the moment the
 * pointer leaves its control and two never show together.
 */
export function TooltipProvider({ children }: { children: ReactNode }) {
  return (
    <Tooltip.Provider delayDuration={700} skipDelayDuration={300} disableHoverableContent>
      {children}
    </Tooltip.Provider>
  );
}

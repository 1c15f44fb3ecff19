import clsx from 'clsx';
import { Tooltip } from 'radix-ui';
import { type ComponentPropsWithoutRef, forwardRef } from 'react';
import shared from './shared.module.css';
import styles from './TooltipButton.module.css';

type Props = ComponentPropsWithoutRef<'button'> & { tooltip: string };

/** An icon button named by its tooltip (spec section 2's tooltip list); primitives pass their behaviour through asChild. */
export const TooltipButton = forwardRef<HTMLButtonElement, Props>(function TooltipButton(
  { tooltip, className, children, ...rest },
  ref,
) {
  return (
    <Tooltip.Root>
      <Tooltip.Trigger asChild>
        <button type="button" aria-label={tooltip} {...rest} ref={ref} className={clsx(shared.iconButton, className)}>
          {children}
        </button>
      </Tooltip.Trigger>
      <Tooltip.Portal>
        <Tooltip.Content className={styles.tooltip} side="top" sideOffset={4}>
          {tooltip}
        </Tooltip.Content>
      </Tooltip.Portal>
    </Tooltip.Root>
  );
});

/** Spec section 9: tooltips open after 700 ms, and at once for 300 ms after another one closed. */
export function TooltipProvider({ children }: { children: React.ReactNode }) {
  return (
    <Tooltip.Provider delayDuration={700} skipDelayDuration={300}>
      {children}
    </Tooltip.Provider>
  );
}

import { BranchPickerPrimitive } from '@assistant-ui/react';
import clsx from 'clsx';
import type { ReactNode } from 'react';
import styles from './BranchPicker.module.css';
import { Icon } from './icons';
import { TooltipButton } from './TooltipButton';

/** Previous / n of m / Next between the versions an edit or a refresh made. */
export function BranchPicker({ className }: { className?: string }): ReactNode {
  return (
    <BranchPickerPrimitive.Root hideWhenSingleBranch className={clsx(styles.branchPicker, className)}>
      <BranchPickerPrimitive.Previous asChild>
        <TooltipButton tooltip="Previous">
          <Icon name="previous" />
        </TooltipButton>
      </BranchPickerPrimitive.Previous>
      <span data-testid="branch-state">
        <BranchPickerPrimitive.Number /> / <BranchPickerPrimitive.Count />
      </span>
      <BranchPickerPrimitive.Next asChild>
        <TooltipButton tooltip="Next">
          <Icon name="next" />
        </TooltipButton>
      </BranchPickerPrimitive.Next>
    </BranchPickerPrimitive.Root>
  );
}

import DropdownNavbarItem from '@theme/NavbarItem/DropdownNavbarItem';
import type { ReactNode } from 'react';
import { topNavigation } from '../../../site.config';

type Props = { readonly label: string; readonly mobile?: boolean; readonly position?: 'left' | 'right' };

/**
 * The four top links gathered in one menu, for a desktop navbar too narrow to show them side by side with the whole
 * title (custom.css shows either the menu or the links by width). The phone menu lists the links themselves.
 */
export default function StartHereNavbarItem({ label, mobile = false, position }: Props): ReactNode {
  if (mobile) return null;
  return (
    <div className="navbar-start-here-menu">
      <DropdownNavbarItem label={label} position={position} items={topNavigation} />
    </div>
  );
}

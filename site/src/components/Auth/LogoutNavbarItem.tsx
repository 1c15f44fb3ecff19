import clsx from 'clsx';
import type { ReactNode } from 'react';
import { useAuth } from './AuthProvider';

type Props = { readonly mobile?: boolean; readonly className?: string };

/** The navbar's "Logout": ends the session on the server, then reloads into the sign-in gate. */
export default function LogoutNavbarItem({ mobile = false, className }: Props): ReactNode {
  const { logout } = useAuth();
  return (
    <button
      type="button"
      data-testid="logout"
      className={clsx(mobile ? 'menu__link' : 'navbar__item navbar__link', 'clean-btn', className)}
      onClick={() => void logout()}
    >
      Logout
    </button>
  );
}

import { Avatar } from 'radix-ui';
import type { ReactNode } from 'react';
import styles from './AssistantAvatar.module.css';

/** Dev Copilot's avatar: the site logo, or the letter A while it loads or when it cannot. */
export function AssistantAvatar(): ReactNode {
  return (
    <Avatar.Root className={styles.avatar}>
      <Avatar.Image src="/img/logo.svg" alt="" />
      <Avatar.Fallback delayMs={0}>A</Avatar.Fallback>
    </Avatar.Root>
  );
}

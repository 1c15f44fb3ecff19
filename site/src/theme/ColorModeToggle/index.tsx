import { useColorMode } from '@docusaurus/theme-common';
import type { Props } from '@theme/ColorModeToggle';
import ColorModeToggle from '@theme-original/ColorModeToggle';
import type { ReactNode } from 'react';

/**
 * Light or dark, as the spec says, starting from the system's setting until the reader chooses. Docusaurus cycles
 * system, light, dark when it respects the system's scheme, so the first click on a light system changed nothing the
 * reader could see. Here every click turns the page to the other scheme, and that choice is kept.
 */
export default function TwoSchemeColorModeToggle(props: Props): ReactNode {
  const { colorMode } = useColorMode();
  return <ColorModeToggle {...props} respectPrefersColorScheme={false} value={colorMode} />;
}

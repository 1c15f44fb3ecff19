import useDocusaurusContext from '@docusaurus/useDocusaurusContext';
import type { CopilotActions } from '../../../site.config';

/** The chat actions this build allows (site.config.ts, passed through docusaurus.config.ts customFields). */
export function useCopilotActions(): CopilotActions {
  const { siteConfig } = useDocusaurusContext();
  return siteConfig.customFields?.copilotActions as CopilotActions;
}

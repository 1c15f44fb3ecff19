/**
 * Facts about the company and the handbook, in one place. Pages, navbar, footer and the Copilot read them from here.
 */
export const siteFacts = {
  companyName: 'Acme',
  handbookTitle: 'Acme Developer Handbook',
  tagline: 'How Acme builds, ships and supports Shopify apps',
  frameworkName: 'Acme Core',
  cliName: 'acme-cli',
  assistantName: 'Dev Copilot',
  assistantPath: '/dev-copilot',
  copyrightYear: 2025,
  announcement: {
    /** Change the id when the text changes, so readers who dismissed the old one see the new one. */
    id: 'handbook-2025-launch',
    content:
      'This is the 2025 handbook. Found something outdated or missing? Open a merge request on acme-apps/handbook.',
  },
} as const;

/** Top navigation links, in the order the spec gives. */
export const topNavigation = [
  { label: 'Training Docs', to: '/getting_started/' },
  { label: 'Coding Standard', to: '/coding-standard/' },
  { label: 'Dev Flow', to: '/dev-flow/' },
  { label: 'Self-learning', to: '/self-learning/how-to-self-learning' },
] as const;

/** The chat actions of spec section 6; each can be switched off here and disappears from the assistant everywhere. */
export type CopilotActions = {
  allowEdit: boolean;
  allowCopy: boolean;
  allowSpeak: boolean;
  allowReload: boolean;
  allowFeedbackPositive: boolean;
  allowFeedbackNegative: boolean;
  allowAttachments: boolean;
  allowBranchPicker: boolean;
};

const allCopilotActions: CopilotActions = {
  allowEdit: true,
  allowCopy: true,
  allowSpeak: true,
  allowReload: true,
  allowFeedbackPositive: true,
  allowFeedbackNegative: true,
  allowAttachments: true,
  allowBranchPicker: true,
};

/**
 * The actions this build offers. `COPILOT_DISABLED_ACTIONS=allowCopy,allowSpeak` at build time switches some off
 * without editing this file (the e2e tests build a site that way).
 */
export function copilotActions(disabled = process.env.COPILOT_DISABLED_ACTIONS ?? ''): CopilotActions {
  const off = new Set(disabled.split(',').map((name) => name.trim()));
  const unknown = [...off].filter((name) => name && !(name in allCopilotActions));
  if (unknown.length) throw new Error(`COPILOT_DISABLED_ACTIONS names unknown actions: ${unknown.join(', ')}`);
  return Object.fromEntries(
    Object.entries(allCopilotActions).map(([name, allowed]) => [name, allowed && !off.has(name)]),
  ) as CopilotActions;
}

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

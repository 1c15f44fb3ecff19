import Link from '@docusaurus/Link';
import Heading from '@theme/Heading';
import Layout from '@theme/Layout';
import type { ReactNode } from 'react';
import type { DocsIndexSection } from '../../../plugins/docs-index/build-docs-index';
import styles from './styles.module.css';

type Props = { readonly sections: DocsIndexSection[] };

function slugOf(label: string): string {
  return label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** The /docs/ landing: every handbook page by sidebar category, each with its one-line description. */
export default function DocsIndex({ sections }: Props): ReactNode {
  const docCount = sections.reduce((total, section) => total + section.docs.length, 0);
  return (
    <Layout title="All docs" description="Every page of the Acme developer handbook, by section.">
      <main className="container margin-vert--lg" data-testid="docs-index">
        <Heading as="h1">All docs</Heading>
        <p className={styles.lead}>
          {docCount} pages in {sections.length} sections. Press <kbd>Ctrl</kbd>/<kbd>⌘</kbd> + <kbd>K</kbd> to search
          them.
        </p>
        {sections.map((section) => (
          <section key={section.label} className={styles.section} aria-labelledby={slugOf(section.label)}>
            <Heading as="h2" id={slugOf(section.label)}>
              {section.label}
            </Heading>
            <ul className={styles.list}>
              {section.docs.map((doc) => (
                <li key={doc.id} className={styles.item} data-testid="docs-index-entry">
                  <Link to={doc.permalink} className={styles.title}>
                    {doc.title}
                  </Link>
                  <span className={styles.description}>{doc.description}</span>
                </li>
              ))}
            </ul>
          </section>
        ))}
      </main>
    </Layout>
  );
}

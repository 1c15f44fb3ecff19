import { sql } from 'drizzle-orm';
import type { Database } from '../src/store/database.js';

export type InsightsYear = { readers: number; questions: number; ratedConversations: number; searches: number };

/** A year of rows, written by the database itself (generate_series), spread over the 365 days before now. */
export async function seedInsightsYear(
  db: Database,
  { readers, questions: questionCount, ratedConversations, searches: searchCount }: InsightsYear,
) {
  const spreadOverYear = (row: string) =>
    sql.raw(`now() - ((${row} % 365) * interval '1 day') - ((${row}::bigint * 7919 % 86400) * interval '1 second')`);
  await db.execute(sql`
    insert into questions (id, reader, question, mode, covered, confidence, nearest_page_url, nearest_page_title,
      sources, answer_message_id, created_at)
    select 'q' || i, 'reader-' || (i % ${readers}),
      'how do I configure topic' || (i % 300) || ' with tool' || (i % 37) || ' on service' || (i % 11),
      'docs-only', i % 3 = 0, (array['answered', 'closest', 'none'])[i % 3 + 1],
      '/page-' || (i % 120), 'Page ' || (i % 120),
      jsonb_build_array(jsonb_build_object('url', '/page-' || (i % 120) || '#part', 'title', 'Page ' || (i % 120) || ' › Part')),
      'answer-' || i, ${spreadOverYear('i')}
    from generate_series(1, ${questionCount}) as i`);
  await db.execute(sql`
    insert into threads (id, reader, title) select 't' || i, 'reader-' || (i % ${readers}), 'Bench'
    from generate_series(1, ${ratedConversations}) as i`);
  await db.execute(sql`
    insert into messages (id, thread_id, parent_id, role, content, created_at)
    select 'u' || i, 't' || i, null, 'user', jsonb_build_array(jsonb_build_object('type', 'text', 'text', 'question ' || i)),
      ${spreadOverYear('i')}
    from generate_series(1, ${ratedConversations}) as i`);
  await db.execute(sql`
    insert into messages (id, thread_id, parent_id, role, content, sources, created_at)
    select 'm' || i, 't' || i, 'u' || i, 'assistant', '[]'::jsonb,
      jsonb_build_array(jsonb_build_object('url', '/page-' || (i % 120) || '#part', 'title', 'Page ' || (i % 120))),
      ${spreadOverYear('i')}
    from generate_series(1, ${ratedConversations}) as i`);
  await db.execute(sql`
    insert into feedback (message_id, reader, rating, comment, updated_at)
    select 'm' || i, 'reader-' || (i % ${readers}), case when i % 4 = 0 then 'positive' else 'negative' end,
      case when i % 2 = 0 then 'comment ' || i else null end, ${spreadOverYear('i')}
    from generate_series(1, ${ratedConversations}) as i`);
  await db.execute(sql`
    insert into search_queries (id, reader, query, result_count, clicked, created_at)
    select 's' || i, 'reader-' || (i % ${readers}), 'search ' || (i % 2000), (i % 9), i % 3 = 0, ${spreadOverYear('i')}
    from generate_series(1, ${searchCount}) as i`);
}

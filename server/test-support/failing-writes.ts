import { sql } from 'drizzle-orm';
import type { Store } from '../src/store/database.js';

/**
 * Makes writes to the messages table fail on demand, as a full disk or a restarting database fails them: a trigger
 * raises PostgreSQL's `errcode` (with `message`) on each `event` of a row for which `when` holds, while switched on.
 * The switch is a row in a table of its own, so a test turns it on and off between requests.
 */
export async function failingMessageWrites(
  store: Store,
  fault: {
    name: string;
    event: 'insert' | 'update';
    errcode: 'disk_full' | 'admin_shutdown';
    message: string;
    /** A condition on `new` (the row written); every row when left out. */
    when?: string;
  },
) {
  const { name, event, errcode, message, when = 'true' } = fault;
  const switchTable = sql.identifier(`${name}_now`);
  await store.db.execute(sql`create table ${switchTable} (since timestamptz)`);
  // Test-only text, written here: never a reader's input.
  await store.db.execute(
    sql.raw(`
      create function ${name}_fails() returns trigger language plpgsql as $$
      begin
        if (${when}) and exists (select 1 from ${name}_now) then
          raise exception '${message.replaceAll("'", "''")}' using errcode = '${errcode}';
        end if;
        return new;
      end $$`),
  );
  await store.db.execute(
    sql.raw(`create trigger ${name} before ${event} on messages for each row execute function ${name}_fails()`),
  );
  return {
    start: async () => {
      await store.db.execute(sql`insert into ${switchTable} values (now())`);
    },
    stop: async () => {
      await store.db.execute(sql`delete from ${switchTable}`);
    },
  };
}

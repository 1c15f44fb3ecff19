import { defineConfig } from 'drizzle-kit';

/** `npm run db:generate -w server -- --name <change>` writes the SQL that `openStore` applies on PGlite and PostgreSQL. */
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/store/schema.ts',
  out: './drizzle',
});

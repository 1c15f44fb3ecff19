import { buildServer } from '../server/scripts/build.mjs';

/** The whole-product tests run the compiled server: compile it from the sources as they are now (about 0.1 s). */
export default async function setup() {
  await buildServer({ quiet: true });
}

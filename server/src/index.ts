/** The server as a library: what the test suite and the bench start, compiled to dist/index.js like dist/start.js. */
export { type BuildOptions, buildApp } from './app.js';
export { loadConfig } from './config.js';
export { inMemoryDataDirectory, openStore, type Store } from './store/database.js';

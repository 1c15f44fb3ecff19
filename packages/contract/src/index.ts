export * from './ask.js';
export * from './errors.js';
export * from './ids.js';
export * from './limits.js';
export * from './search.js';
export * from './search-request.js';
export * from './threads.js';
export * from './turn.js';

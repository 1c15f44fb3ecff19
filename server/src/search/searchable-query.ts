/** Control characters (NUL among them) and lone surrogates say nothing to search by. */
const unsearchable = /[\p{Cc}\p{Cs}]/gu;

/** A query as the engine is asked it, from the search box or from a model's search: without what says nothing. */
export const searchableQuery = (query: string): string => query.replace(unsearchable, ' ').trim();

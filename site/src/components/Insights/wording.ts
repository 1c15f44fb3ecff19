/** The noun for a count, singular for one: "1 search", "3 searches", "0 readers". */
export const noun = (count: number, one: string, many: string): string => (count === 1 ? one : many);

/** A count with its noun: "1 rating down", "2 readers". */
export const counted = (count: number, one: string, many: string): string => `${count} ${noun(count, one, many)}`;

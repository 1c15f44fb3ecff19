export declare function newestModification(entry: string): number;
export declare function isStale(output: string, sources: readonly string[]): boolean;

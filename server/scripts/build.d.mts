/** Compiles the server's sources into server/dist. */
export declare function buildServer(options?: { quiet?: boolean }): Promise<void>;
export declare const entryPoints: Record<string, string>;
export declare const compiledEntry: string;
/** Compiles only when dist/ is missing or older than its sources; says whether it did. */
export declare function buildServerIfStale(options?: { quiet?: boolean }): Promise<boolean>;
/** Writes a site build's prepared search with the compiled server (site/build unless given); a missing build is skipped. */
export declare function prepareSiteBuild(siteDirectory?: string, options?: { quiet?: boolean }): void;

/** Compiles the server's sources into server/dist. */
export declare function buildServer(options?: { quiet?: boolean }): Promise<void>;
export declare const entryPoints: Record<string, string>;

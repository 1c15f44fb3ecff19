export declare const defaultSiteBuild: string;
export declare function isSiteBuildStale(): boolean;
/** Builds the default site when it is stale; says whether it did. */
export declare function ensureSiteBuilt(): Promise<boolean>;

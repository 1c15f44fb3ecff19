export declare const defaultSiteBuild: string;
export declare function isSiteBuildStale(): boolean;
export declare function ensureSiteBuilt(): Promise<void>;

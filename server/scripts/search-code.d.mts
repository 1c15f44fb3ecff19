export declare function searchCodeHash(serverDirectory: string): string;

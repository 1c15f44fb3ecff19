/** fs-native-extensions ships without types: the two calls the directory lock makes. */
declare module 'fs-native-extensions' {
  /** An exclusive lock on the whole file; false when another open file holds one. */
  export function tryLock(fd: number): boolean;
  export function unlock(fd: number): void;
}

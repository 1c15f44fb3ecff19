import type { PGlite } from '@electric-sql/pglite';
import { NodeFS } from '@electric-sql/pglite/nodefs';

type EmscriptenModes = {
  chmod(path: unknown, mode: number, dontFollow?: boolean): void;
  fchmod(fd: number, mode: number): void;
};

/**
 * PGlite's files on disk, created for the server's user only. The process umask is not enough: Emscripten sets each
 * new file's mode itself right after creating it (applying its own umask of 022, not the process's), so files
 * PostgreSQL opens with a default mode (the catalog cache `pg_internal.init`, the statistics written on close) would
 * be 0644. PGlite has no option for it, so every mode Emscripten sets loses its group and other bits here.
 */
export class PrivateNodeFilesystem extends NodeFS {
  override async init(pg: PGlite, options: Parameters<NodeFS['init']>[1]) {
    const { emscriptenOpts } = await super.init(pg, options);
    const keepPrivate = (module: { FS: unknown }) => {
      const modes = module.FS as EmscriptenModes;
      const chmod = modes.chmod.bind(modes);
      const fchmod = modes.fchmod.bind(modes);
      modes.chmod = (path, mode, dontFollow) => chmod(path, mode & ~0o077, dontFollow);
      modes.fchmod = (fd, mode) => fchmod(fd, mode & ~0o077);
    };
    return { emscriptenOpts: { ...emscriptenOpts, preRun: [keepPrivate, ...(emscriptenOpts.preRun ?? [])] } };
  }
}

// Preloaded into a server process by e2e/embedded-store-panic.test.ts (node --require): while the file named by
// FAIL_DATABASE_LOG_WRITES exists, every write and fsync to a file of the embedded database's write-ahead log (pg_wal)
// fails with EIO, as a failing disk would. Other files are written as usual.
const fs = require('node:fs');

const flag = process.env.FAIL_DATABASE_LOG_WRITES;
const logFiles = new Set();
const failing = () => flag !== undefined && fs.existsSync(flag);
const ioError = (syscall) =>
  Object.assign(new Error(`EIO: i/o error, ${syscall}`), { code: 'EIO', errno: -5, syscall });

const { openSync, writeSync, fsyncSync, closeSync } = fs;
fs.openSync = function (file, ...rest) {
  const fd = openSync.call(this, file, ...rest);
  if (String(file).includes('pg_wal')) logFiles.add(fd);
  return fd;
};
fs.closeSync = function (fd, ...rest) {
  logFiles.delete(fd);
  return closeSync.call(this, fd, ...rest);
};
fs.writeSync = function (fd, ...rest) {
  if (logFiles.has(fd) && failing()) throw ioError('write');
  return writeSync.call(this, fd, ...rest);
};
fs.fsyncSync = function (fd, ...rest) {
  if (logFiles.has(fd) && failing()) throw ioError('fsync');
  return fsyncSync.call(this, fd, ...rest);
};

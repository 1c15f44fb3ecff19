/** A build watcher thread that dies as it starts, as one out of memory or out of inotify watches would. */
throw new Error('out of inotify watches');

import type { AnswerConfidence, AnswerSource, HandbookSearchPart, MessageStatus } from '@acme/contract';
import type { FastifyBaseLogger } from 'fastify';
import { staleAnswerMs, stillWriting } from '../../store/answer-progress.js';
import type { Database } from '../../store/database.js';
import { updateAnswer } from '../../store/messages.js';
import { whileTheDatabaseIsAway } from '../../store/unavailable.js';

/** How often a growing answer's text is written to the store while it streams. */
const progressIntervalMs = 1000;
/** An answer that wrote nothing new for this long says it is still being written, well within `staleAnswerMs`. */
const stillWritingAfterMs = staleAnswerMs / 3;

/**
 * How long an answer's end is written again while the database is away or its disk full: the reader has read the
 * whole answer, and it is in memory. Within `staleAnswerMs` of its last sign of life (the answer is still marked alive
 * meanwhile), so no instance takes it for one whose server died.
 */
const endWriteRetryMs = staleAnswerMs - stillWritingAfterMs - 5000;
/**
 * At shutdown, from the moment it stops the answer: within the 5 s the process gives connections still open after the
 * drain (ops/shutdown.ts), and before the store's close stops waiting for the queries under way (store/database.ts).
 */
const endWriteRetryAtShutdownMs = 3000;

export type ProgressSaver = ReturnType<typeof progressSaver>;

/**
 * Keeps the stored answer close to what was streamed, at most once a second and one write at a time (a write the
 * database keeps waiting is not followed by a queue of others: the next one takes the text as it is then), then writes
 * its end; a late progress write never overwrites the end. While nothing new comes (a model thinking), the answer is
 * marked alive now and then, so no instance takes it for one whose server died.
 */
export function progressSaver(deps: { db: Database; log: FastifyBaseLogger }, answerId: string) {
  let lastSaved = Date.now();
  /** The progress write under way, if any: the end is written after it. */
  let saving: Promise<unknown> | undefined;
  const alive = setInterval(() => {
    if (Date.now() - lastSaved < stillWritingAfterMs) return;
    lastSaved = Date.now();
    stillWriting(deps.db, [answerId]).catch((error: unknown) =>
      deps.log.warn({ err: error }, 'could not mark an answer in progress as alive'),
    );
  }, stillWritingAfterMs / 2).unref();
  const searches: HandbookSearchPart[] = [];
  /** Until when the end is written again: one allowance for the answer's end, whichever end it is. */
  let endWritesUntil = Number.POSITIVE_INFINITY;
  /** The answer's end: its write, under way or done, or 'failed' (the next end tries once more). */
  let ending: Promise<boolean> | 'failed' | undefined;
  const hurry = () => {
    endWritesUntil = Math.min(endWritesUntil, Date.now() + endWriteRetryAtShutdownMs);
  };
  const update = (status: MessageStatus, text: string, sources: AnswerSource[], confidence?: AnswerConfidence) =>
    updateAnswer(deps.db, { answerId, searches, text, sources, status, confidence });

  return {
    /** A search the model made: kept with the answer's text from the next write on. */
    searched(search: HandbookSearchPart) {
      searches.push(search);
    },
    saySoFar(textSoFar: () => string) {
      if (ending || saving || Date.now() - lastSaved < progressIntervalMs) return;
      lastSaved = Date.now();
      const write = update('running', textSoFar(), [])
        .catch((error: unknown) => deps.log.warn({ err: error }, 'could not store an answer in progress'))
        .finally(() => {
          if (saving === write) saving = undefined;
        });
      saving = write;
    },
    /**
     * Writes the answer's end, again while the database is away (with `shuttingDown`, for the shutdown's allowance
     * only). The first end is the answer's: called again while it is under way or once it is written, this gives its
     * outcome (hurried at shutdown) instead of writing another over it; after one that failed, it tries once more.
     */
    end(
      status: MessageStatus,
      text: string,
      sources: AnswerSource[],
      confidence?: AnswerConfidence,
      shuttingDown = false,
    ): Promise<boolean> {
      if (shuttingDown) hurry();
      if (ending instanceof Promise) return ending;
      // Still infinite only before the first end and any hurry: the allowance starts with the first end.
      if (endWritesUntil === Number.POSITIVE_INFINITY) endWritesUntil = Date.now() + endWriteRetryMs;
      const before = saving ?? Promise.resolve();
      const write = before
        .then(() =>
          whileTheDatabaseIsAway(
            () => update(status, text, sources, confidence),
            () => endWritesUntil,
            (error, retryInMs) =>
              deps.log.warn({ err: error, retryInMs }, 'could not store the end of an answer; trying again'),
          ),
        )
        .catch((error: unknown) => {
          ending = 'failed';
          throw error;
        })
        .finally(() => clearInterval(alive));
      ending = write;
      return write;
    },
    /** The server is stopping: the end, under way or to come, gets the shutdown's allowance only. */
    hurry,
  };
}

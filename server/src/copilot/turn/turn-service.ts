import { type ApiErrorCode, errorBody, type ParsedTurnRequest, type TurnDataParts } from '@acme/contract';
import { createUIMessageStream, type UIMessage, type UIMessageStreamWriter } from 'ai';
import type { FastifyBaseLogger } from 'fastify';
import type { Message } from '../../store/conversations.js';
import type { Database } from '../../store/database.js';
import { appendMessage, type ThreadVersion } from '../../store/messages.js';
import { isDatabaseUnavailable } from '../../store/unavailable.js';
import type { AnswerRun } from '../answer/answer-service.js';
import type { Copilot } from '../copilot.js';
import { checkImages } from '../images.js';
import { classifyModelError, reasonOf } from '../model/model-errors.js';
import { conversationFor, placeQuestion, type QuestionPlace, textOf } from './conversation.js';
import { progressSaver } from './progress-saver.js';
import { StoppedByReader, StoppedByShutdown } from './running-answers.js';

/** The longest an answer's pieces run on before other work gets a turn of the event loop. */
const turnSliceMs = 20;

export type TurnMessage = UIMessage<never, TurnDataParts>;
type Writer = UIMessageStreamWriter<TurnMessage>;

/** What a turn is taken with: the store, Dev Copilot, and the request's logger. */
export type TurnDependencies = { db: Database; copilot: Copilot; log: FastifyBaseLogger };

type Answering = {
  reader: string;
  threadId: string;
  questionId: string;
  answerId: string;
  /** The thread's title with the question stored (a first question names the thread). */
  title: string;
  threadVersion: TurnDataParts['turn']['threadVersion'];
  signal: AbortSignal;
};

/**
 * The thread's `updatedAt` before this turn's question and once its answer is in, when nothing came between the two
 * (a question another tab sent meanwhile would be hidden from the widget's next look); undefined otherwise.
 */
function versionAcross(question: ThreadVersion | undefined, answer: ThreadVersion) {
  if (question && question.after.getTime() !== answer.before.getTime()) return undefined;
  return { before: (question ?? answer).before.toISOString(), after: answer.after.toISOString() };
}

/**
 * One turn, owned by the server from question to stored answer: checks the images and where the question goes,
 * stores the question, then answers in the background. The returned stream only watches the answer: a reader who
 * closes the tab does not stop it, it is stored all the same; Stop (RunningAnswers.stop) stores what was written.
 */
export async function startTurn(deps: TurnDependencies, reader: string, turn: ParsedTurnRequest) {
  const images = checkImages(turn.attachments, 'attachments');
  // The slot first: from here the question's body counts against the reader's answers at once (question-bodies.ts),
  // not only once the thread has been read.
  const slot = await deps.copilot.running.begin(reader, turn.threadId);
  try {
    const place = await placeQuestion(deps.db, reader, turn);
    const text = place.retried ? textOf(place.retried) : turn.text;
    const conversation = conversationFor(place, { text, attachments: turn.attachments }, turn.page);
    const { question, answer } = await storeTurn(deps.db, reader, turn, place, images);
    const answering = {
      reader,
      threadId: turn.threadId,
      questionId: question.id,
      answerId: answer.id,
      title: answer.threadTitle,
      threadVersion: versionAcross(question.threadVersion, answer.threadVersion),
    };
    return createUIMessageStream<TurnMessage>({
      execute: ({ writer }) =>
        writeAnswer(deps, { ...answering, signal: slot.signal }, writer, (signal) =>
          deps.copilot.answer(conversation, { images, reader }, signal),
        ).finally(slot.end),
    });
  } catch (error) {
    await slot.end();
    throw error;
  }
}

/**
 * Stores the turn's question (unless a Refresh asks a stored one again) and its answer, at once as running so a reader
 * who reloads mid-answer finds it and sees it grow. One transaction: when the database fails between the two (a
 * restart), the turn is refused whole and keeps nothing, rather than leaving a question no answer follows.
 */
function storeTurn(
  db: Database,
  reader: string,
  turn: ParsedTurnRequest,
  place: QuestionPlace,
  images: ReturnType<typeof checkImages>,
) {
  return db.transaction(async (tx) => {
    // A Refresh asks a stored question again: only a question stored now changed the thread's version.
    const question: Message & { threadVersion?: ThreadVersion } =
      place.retried ??
      (await appendMessage(tx, {
        reader,
        threadId: turn.threadId,
        message: {
          parentId: place.parentId,
          role: 'user',
          content: [{ type: 'text', text: turn.text }],
          attachments: turn.attachments.map((attachment, index) => ({
            name: attachment.name ?? `image-${index + 1}`,
            contentType: attachment.contentType,
            size: images[index]?.bytes.length ?? 0,
          })),
        },
      }));
    const answer = await appendMessage(tx, {
      reader,
      threadId: turn.threadId,
      message: { parentId: question.id, role: 'assistant', content: [], status: 'running' },
    });
    return { question, answer };
  });
}

async function writeAnswer(
  deps: TurnDependencies,
  answering: Answering,
  writer: Writer,
  start: (signal: AbortSignal) => Promise<AnswerRun>,
) {
  const { threadId, questionId, answerId, title, threadVersion, signal } = answering;
  const asked = performance.now();
  writer.write({ type: 'start', messageId: answerId });
  writer.write({ type: 'data-turn', data: { threadId, questionId, answerId, title, threadVersion } });
  let text = '';
  let run: AnswerRun | undefined;
  const progress = progressSaver(deps, answering.answerId);
  try {
    run = await start(signal);
    if (run.modelFailure) {
      deps.log.warn(
        { code: run.modelFailure.code, reason: run.modelFailure.reason },
        'the model failed; docs answered',
      );
      deps.copilot.observer?.modelFellBack(run.modelFailure.code);
    }
    // The text part starts with its first words, so a search the model made before them comes first in the message.
    let textStarted = false;
    const startText = () => {
      if (!textStarted) writer.write({ type: 'text-start', id: answerId });
      textStarted = true;
    };
    // Pieces a provider sent together arrive as one chain of promises: other requests, timers and signals wait.
    let ranSince = performance.now();
    const giveWay = async () => {
      if (performance.now() - ranSince < turnSliceMs) return;
      await new Promise((resolve) => setImmediate(resolve));
      ranSince = performance.now();
    };
    for await (const piece of run.pieces) {
      signal.throwIfAborted();
      if (typeof piece !== 'string') {
        progress.searched(piece);
        writer.write({
          type: 'tool-input-available',
          toolCallId: piece.toolCallId,
          toolName: piece.toolName,
          input: piece.args,
        });
        writer.write({ type: 'tool-output-available', toolCallId: piece.toolCallId, output: piece.result });
        continue;
      }
      startText();
      // Verdicts on the links this piece completes go first, so the widget never shows an invented one as a link.
      for (const verdict of run.judgeLinks(text + piece))
        writer.write({ type: 'data-link', id: verdict.url, data: verdict });
      text += piece;
      writer.write({ type: 'text-delta', id: answerId, delta: piece });
      const checked = run;
      progress.saySoFar(() => checked.finish(text).text);
      await giveWay();
    }
    for (const verdict of run.judgeLinks(text, { final: true })) {
      writer.write({ type: 'data-link', id: verdict.url, data: verdict });
    }
    const finished = run.finish(text);
    const { covered, confidence, sources } = finished;
    // A greeting or thanks answered is no verdict on the handbook: the widget shows no confidence note beside it.
    const shown = finished.smallTalk ? undefined : confidence;
    // The reader has read it all; should the server stop while the end cannot be written, they are told at once.
    const kept = await unlessShutDown(progress.end('complete', finished.text, sources, shown), signal);
    // Logged before the reader sees the end, so everything the turn keeps exists once it has ended; an answer whose
    // chat was deleted meanwhile is forgotten with it.
    if (kept) {
      const { smallTalk } = finished;
      await deps.copilot.record({
        ...run,
        covered,
        confidence,
        reader: answering.reader,
        sources,
        smallTalk,
        answerId,
      });
    }
    // Known once the answer is written: a model says itself how far the handbook answered. A data part, since the
    // widget's stream decoder (assistant-stream) passes data parts on and drops message metadata.
    if (shown) writer.write({ type: 'data-confidence', data: { confidence: shown } });
    for (const source of sources) {
      writer.write({ type: 'source-url', sourceId: source.url, url: source.url, title: source.title });
    }
    startText();
    writer.write({ type: 'text-end', id: answerId });
    writer.write({ type: 'finish', finishReason: 'stop' });
    deps.log.info({ mode: run.mode, confidence, sources: sources.length }, 'answered');
    deps.copilot.observer?.answered(covered, (performance.now() - asked) / 1000, run.mode);
  } catch (error) {
    const stopped = signal.reason instanceof StoppedByReader;
    const shuttingDown = signal.reason instanceof StoppedByShutdown;
    const partial = run ? run.finish(text).text : text;
    const fail = (code: ApiErrorCode) => {
      deps.log.warn({ code, reason: reasonOf(error) }, 'the answer failed');
      deps.copilot.observer?.failed(code);
      const { error: failure } = errorBody(code);
      writer.write({ type: 'data-failure', data: failure });
      writer.write({ type: 'error', errorText: failure.message });
    };
    // Stopped at shutdown, the reader is told at once to ask again (another instance answers): with the database away,
    // writing the end first kept them waiting past the process's own deadline, and their stream was cut unexplained.
    // So is a reader whose whole answer was read while its end could not be written; that end, under way, is kept.
    if (shuttingDown) fail(classifyModelError(signal.reason));
    const storeFailure = await progress
      .end(stopped ? 'incomplete' : 'error', partial, [], undefined, shuttingDown)
      .then(
        () => undefined,
        (storeError: unknown): ApiErrorCode => {
          deps.log.error({ err: storeError }, 'could not store an unfinished answer');
          // An outage that outlasted the end's retries is the database's, not a fault in the reader's chats.
          return isDatabaseUnavailable(storeError) ? 'unavailable:database' : 'internal:threads';
        },
      );
    if (stopped) {
      deps.copilot.observer?.cancelled();
      writer.write({ type: 'abort', reason: 'stopped' });
      return;
    }
    // The model's failure, or the store's when the end could not be written.
    if (!shuttingDown) fail(storeFailure ?? classifyModelError(error));
  }
}

/**
 * `ending`, unless the server stops the answer first (its shutdown's drain is over): then its end gets the shutdown's
 * allowance only, and the caller hears the shutdown at once.
 */
function unlessShutDown<T>(ending: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const stopped = () => {
      if (signal.reason instanceof StoppedByShutdown) reject(signal.reason);
    };
    if (signal.aborted) stopped();
    signal.addEventListener('abort', stopped, { once: true });
    ending.then(resolve, reject).finally(() => signal.removeEventListener('abort', stopped));
  });
}

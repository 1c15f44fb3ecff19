import type { Limits } from '../limits/limits.js';
import type { Database } from '../store/database.js';
import type { AnswerDependencies } from './answer/answer-service.js';
import type { CopilotObserver } from './copilot-observer.js';
import type { RunningAnswers } from './turn/running-answers.js';
import type { AnsweredQuestion } from './turn/turn-service.js';

/** What Dev Copilot's API is started with. */
export type CopilotOptions = AnswerDependencies & {
  db: Database;
  requestsPerMinute?: number | undefined;
  concurrentPerUser?: number | undefined;
  /** Counts both limits across instances; without it, this instance counts alone. */
  limits?: Limits | undefined;
  /** On shutdown, how long running answers may go on before they are stopped. */
  shutdownTimeoutMs?: number | undefined;
  /** Counts questions, their coverage and latency, and why answers failed (the server's metrics). */
  observer?: CopilotObserver | undefined;
};

/** What each of Dev Copilot's route plugins gets; kept apart from routes.ts, which imports the plugins. */
export type CopilotRouteOptions = CopilotOptions & {
  running: RunningAnswers;
  /** Logs an answered question for the maintainers' report; never throws. */
  recordAnswer: (question: AnsweredQuestion) => Promise<void>;
  bodyLimit: number;
};

/** What a reader can do about a question whose body is too large. */
export const tooLargeAdvice = 'Send fewer or smaller screenshots, or a shorter text.';

import type { ApiErrorCode } from '@acme/contract';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { RequestObserver } from '../access-log.js';
import type { CopilotObserver } from '../copilot/copilot-observer.js';
import type { ImageTextReader } from '../copilot/ocr/image-text-reader.js';
import { requestKind, requestKinds } from './request-kind.js';

/** A served page takes about a millisecond; a streamed answer can take a minute. */
const requestBuckets = [0.001, 0.005, 0.025, 0.1, 0.5, 2.5, 10, 60];
const answerBuckets = [0.1, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120];
const ocrBuckets = [0.1, 0.25, 0.5, 1, 2, 5, 10, 20];
const statusClasses = ['1xx', '2xx', '3xx', '4xx', '5xx'] as const;

const databaseErrorPlaces = ['request', 'maintenance', 'metrics'] as const;
export type DatabaseErrorPlace = (typeof databaseErrorPlaces)[number];

/**
 * The server's Prometheus metrics, in a registry of this app's own (tests build several apps in one process; the
 * global registry would refuse the second set of names). Scraped from the metrics listener only.
 */
export function createMetrics({ mode }: { mode: 'docs-only' | 'model' }) {
  const registry = new Registry();
  const registers = [registry];
  collectDefaultMetrics({ register: registry });

  const requestDuration = new Histogram({
    name: 'handbook_http_request_duration_seconds',
    help: 'Requests answered, by kind (page, asset, api, sign-in, other) and status class, and how long each took',
    labelNames: ['kind', 'status_class'],
    buckets: requestBuckets,
    registers,
  });
  // Every child looked up once, so a request costs one observe and no label hashing of ours.
  const requestChildren = new Map(
    requestKinds.map((kind) => [kind, statusClasses.map((status) => requestDuration.labels(kind, status))]),
  );
  const observeRequest: RequestObserver = (method, path, status, ms) => {
    const children = requestChildren.get(requestKind(method, path));
    children?.[Math.min(Math.max(Math.floor(status / 100), 1), 5) - 1]?.observe(ms / 1000);
  };

  const questions = new Counter({
    name: 'handbook_copilot_questions_total',
    help: 'Dev Copilot questions by outcome: covered or not_covered by the docs (answered), cancelled, failed',
    labelNames: ['mode', 'outcome'],
    registers,
  });
  const answerDuration = new Histogram({
    name: 'handbook_copilot_answer_duration_seconds',
    help: 'Seconds from a question to the last word of its answer, for answers given in full',
    labelNames: ['mode'],
    buckets: answerBuckets,
    registers,
  });
  const modelErrors = new Counter({
    name: 'handbook_copilot_model_errors_total',
    help: 'Model runs that failed, by cause (timeout, busy, refused_key, unreachable, bad_response, error): the answer ended in an error, or came from the docs alone when the model had written nothing',
    labelNames: ['cause'],
    registers,
  });
  const countModelError = (code: ApiErrorCode) => {
    const cause = /^model_(\w+):/.exec(code)?.[1];
    if (cause) modelErrors.inc({ cause });
  };
  const copilot: CopilotObserver = {
    answered(covered, seconds, answerMode) {
      questions.inc({ mode: answerMode, outcome: covered ? 'covered' : 'not_covered' });
      answerDuration.observe({ mode: answerMode }, seconds);
    },
    cancelled: () => questions.inc({ mode, outcome: 'cancelled' }),
    failed(code: ApiErrorCode) {
      questions.inc({ mode, outcome: 'failed' });
      countModelError(code);
    },
    modelFellBack: countModelError,
  };

  const ocrDuration = new Histogram({
    name: 'handbook_ocr_duration_seconds',
    help: 'Seconds to read the text of one screenshot, waiting for the engine included, by outcome',
    labelNames: ['outcome'],
    buckets: ocrBuckets,
    registers,
  });
  /** The same reader, each read timed: read (text or none), unreadable (the image), failed (timeout, busy...). */
  const timeImageReading = (reader: ImageTextReader): ImageTextReader => ({
    async read(image, signal, readerKey) {
      const stop = ocrDuration.startTimer();
      try {
        const text = await reader.read(image, signal, readerKey);
        stop({ outcome: text.problem ? 'unreadable' : 'read' });
        return text;
      } catch (error) {
        stop({ outcome: 'failed' });
        throw error;
      }
    },
    close: () => reader.close(),
  });

  const databaseErrors = new Counter({
    name: 'handbook_database_errors_total',
    help: 'Database queries that failed, by where: a request, the maintenance job, the metrics themselves',
    labelNames: ['where'],
    registers,
  });
  // Zero from the start, so an alert on any increase has a series to compare with.
  for (const where of databaseErrorPlaces) databaseErrors.inc({ where }, 0);

  return {
    registry,
    observeRequest,
    copilot,
    timeImageReading,
    countDatabaseError: (where: DatabaseErrorPlace) => databaseErrors.inc({ where }),
    maintenanceRuns: new Counter({
      name: 'handbook_maintenance_runs_total',
      help: 'Maintenance rounds by outcome: ran here, skipped (another instance ran it), failed',
      labelNames: ['outcome'],
      registers,
    }),
    maintenanceRemoved: new Counter({
      name: 'handbook_maintenance_removed_total',
      help: 'Rows the maintenance job removed, by what: expired_sessions, old_questions, old_search_queries, ended_limits, expired_tokens, stale_oauth, unused_accounts',
      labelNames: ['what'],
      registers,
    }),
    /** A gauge read when Prometheus scrapes; `read` must not throw. */
    gaugeOnScrape(name: string, help: string, read: () => number | Promise<number>) {
      new Gauge({
        name,
        help,
        registers,
        async collect() {
          this.set(await read());
        },
      });
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

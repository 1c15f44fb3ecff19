import { afterEach, describe, expect, it, vi } from 'vitest';
import { capturedLog } from '../../test-support/limits.js';
import { OutageGuard } from './outage-guard.js';

const unavailable =
  'the limits shared across instances are unavailable (PostgreSQL); this instance counts alone meanwhile';
const refused = () =>
  Promise.reject(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5433'), { code: 'ECONNREFUSED' }));

afterEach(() => {
  vi.useRealTimers();
});

describe('OutageGuard', () => {
  it('gives the shared answer while the store answers, and logs nothing', async () => {
    const { log, lines } = capturedLog();
    const guard = new OutageGuard({ backend: 'PostgreSQL', log });
    expect(
      await guard.run(
        async () => 7,
        () => 1,
      ),
    ).toBe(7);
    expect(lines).toEqual([]);
  });

  it('answers from this instance when the store fails, warning once for many requests, and says when it is back', async () => {
    const { log, warnings, infos, lines } = capturedLog();
    const guard = new OutageGuard({ backend: 'PostgreSQL', log });
    const answers = [];
    for (let request = 0; request < 20; request++) answers.push(await guard.run(refused, () => 1));
    expect(answers).toEqual(Array(20).fill(1));
    expect(warnings()).toEqual([unavailable]);
    expect(lines[0]).toMatchObject({
      backend: 'PostgreSQL',
      reason: 'connect ECONNREFUSED 127.0.0.1:5433',
      failures: 1,
    });
    expect(
      await guard.run(
        async () => 7,
        () => 1,
      ),
    ).toBe(7);
    expect(
      await guard.run(
        async () => 8,
        () => 1,
      ),
    ).toBe(8);
    expect(infos()).toEqual(['the limits shared across instances are back']);
  });

  it('takes a store that throws before it even answers for a failure like any other', async () => {
    const { log, warnings } = capturedLog();
    const guard = new OutageGuard({ backend: 'PostgreSQL', log });
    const throwing = (): Promise<number> => {
      throw new Error('pool ended');
    };
    expect(await guard.run(throwing, () => 1)).toBe(1);
    expect(warnings()).toHaveLength(1);
  });

  it('does not wait past its time limit on a store that hangs, and hands a late answer over', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { log, lines } = capturedLog();
    const guard = new OutageGuard({ backend: 'PostgreSQL', log, timeoutMs: 50 });
    const late = vi.fn();
    const slow = () => new Promise<string>((resolve) => setTimeout(() => resolve('slot-1'), 200));
    const answered = vi.fn();
    void guard.run(slow, () => 'here', late).then(answered);
    await vi.advanceTimersByTimeAsync(49);
    expect(answered).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(answered).toHaveBeenCalledWith('here');
    expect(lines[0]).toMatchObject({ reason: 'no answer within 50 ms' });
    expect(late).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(150);
    expect(late).toHaveBeenCalledWith('slot-1');
  });

  it('repeats the warning once a minute while the outage lasts, with how many requests it touched', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { log, lines } = capturedLog();
    const guard = new OutageGuard({ backend: 'PostgreSQL', log });
    await guard.run(refused, () => 1);
    for (let second = 1; second <= 59; second++) {
      vi.setSystemTime(Date.now() + 1000);
      await guard.run(refused, () => 1);
    }
    expect(lines).toHaveLength(1);
    vi.setSystemTime(Date.now() + 1000);
    await guard.run(refused, () => 1);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatchObject({ msg: unavailable, failures: 60 });
  });

  it('keeps a flapping store to one warning and one recovery line a minute', async () => {
    const { log, lines } = capturedLog();
    const guard = new OutageGuard({ backend: 'PostgreSQL', log });
    for (let request = 0; request < 10; request++) {
      await guard.run(refused, () => 1);
      await guard.run(
        async () => 7,
        () => 1,
      );
    }
    expect(lines.map((line) => line.msg)).toEqual([unavailable, 'the limits shared across instances are back']);
  });
});

import { describe, expect, it, vi } from 'vitest';
import { cancellableCalls, cancelledIdsIn, requestIdsIn } from './cancellable-calls.js';

const call = (id: string | number, method = 'tools/call') => ({ jsonrpc: '2.0', id, method, params: {} });
const cancellation = (requestId?: string | number) => ({
  jsonrpc: '2.0',
  method: 'notifications/cancelled',
  params: requestId === undefined ? {} : { requestId, reason: 'gave up' },
});

describe('the messages of a POST to /mcp', () => {
  it('names the ids of its requests, alone or in a batch, and nothing else', () => {
    expect(requestIdsIn(call(3))).toEqual([3]);
    expect(requestIdsIn([call('a'), cancellation(3), { jsonrpc: '2.0', id: 4, result: {} }])).toEqual(['a']);
    expect(requestIdsIn('not JSON-RPC')).toEqual([]);
  });

  it('names the requests its cancellations name, not a cancellation without one', () => {
    expect(cancelledIdsIn(cancellation(3))).toEqual([3]);
    expect(cancelledIdsIn([cancellation('a'), cancellation(), call(5)])).toEqual(['a']);
  });
});

describe('the calls in flight', () => {
  it('cancelsOnlyTheCallsOfTheSameToken: another reader naming the same id stops nothing', () => {
    const calls = cancellableCalls();
    const mine = vi.fn();
    calls.track('token-a', [1], mine);
    calls.cancel('token-b', [1]);
    calls.cancel('token-a', [2]);
    expect(mine).not.toHaveBeenCalled();
    calls.cancel('token-a', [1]);
    expect(mine).toHaveBeenCalledOnce();
  });

  it('tells "1" from 1, and forgets a call once it is over', () => {
    const calls = cancellableCalls();
    const cancel = vi.fn();
    const forget = calls.track('token', [1], cancel);
    calls.cancel('token', ['1']);
    expect(cancel).not.toHaveBeenCalled();
    forget();
    calls.cancel('token', [1]);
    expect(cancel).not.toHaveBeenCalled();
  });

  it('forgets one of two calls sharing a token and an id (two agents on one token), not the other', () => {
    const calls = cancellableCalls();
    const first = vi.fn();
    const second = vi.fn();
    calls.track('token', [0], first);
    const forgetSecond = calls.track('token', [0], second);
    forgetSecond();
    calls.cancel('token', [0]);
    expect([first.mock.calls.length, second.mock.calls.length]).toEqual([1, 0]);
  });
});

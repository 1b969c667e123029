import { describe, expect, it } from 'vitest';
import { type BreakerState, CircuitBreaker } from './circuit-breaker';

function breaker(threshold = 3) {
  let now = 0;
  const states: BreakerState[] = [];
  const subject = new CircuitBreaker({
    threshold,
    windowMs: 10_000,
    coolDownMs: 30_000,
    now: () => now,
    onStateChange: (state) => states.push(state),
  });
  return {
    subject,
    states,
    at: (ms: number) => {
      now = ms;
    },
  };
}

describe('CircuitBreaker', () => {
  it('opens only on failures in a row within the window', () => {
    const { subject, states, at } = breaker();
    subject.failed();
    subject.failed();
    subject.succeeded();
    subject.failed();
    subject.failed();
    expect(subject.state).toBe('closed');
    // The window counts from the first failure of the series: these start a new one.
    at(10_001);
    subject.failed();
    subject.failed();
    expect(subject.state).toBe('closed');
    subject.failed();
    expect(subject.state).toBe('open');
    expect(states).toEqual(['open']);
    expect(subject.tryCall()).toBe(false);
  });

  it('lets one trial call out after the cool-down, and no other until it is back', () => {
    const { subject, states, at } = breaker();
    for (let failure = 0; failure < 3; failure += 1) subject.failed();
    at(29_999);
    expect(subject.tryCall()).toBe(false);
    at(30_000);
    expect(subject.tryCall()).toBe(true);
    expect(subject.state).toBe('half_open');
    expect(subject.tryCall()).toBe(false);
    subject.failed();
    expect(subject.state).toBe('open');
    at(59_999);
    expect(subject.tryCall()).toBe(false);
    at(60_000);
    expect(subject.tryCall()).toBe(true);
    subject.succeeded();
    expect(subject.tryCall()).toBe(true);
    expect(subject.tryCall()).toBe(true);
    expect(states).toEqual(['open', 'half_open', 'open', 'half_open', 'closed']);
  });

  it('never opens with a threshold of 0', () => {
    const { subject } = breaker(0);
    for (let failure = 0; failure < 100; failure += 1) subject.failed();
    expect(subject.tryCall()).toBe(true);
  });
});

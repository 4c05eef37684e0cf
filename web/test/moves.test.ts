import { describe, expect, it } from 'vitest';
import { moveTime } from '../src/view/moves';

describe('moveTime', () => {
  it('writes minutes and seconds as records do', () => {
    expect(moveTime(0)).toBe('0:00');
    expect(moveTime(12_000)).toBe('0:12');
    expect(moveTime(65_000)).toBe('1:05');
  });

  it('adds hours past the hour and rounds to the second', () => {
    expect(moveTime(3_600_000)).toBe('1:00:00');
    expect(moveTime(3_725_400)).toBe('1:02:05');
    expect(moveTime(1_499)).toBe('0:01');
  });
});

import { describe, expect, it } from 'vitest';
import { DayBudget, utcDay } from '../../dist/src/runner/day-budget.js';

describe("the runner's day budget", () => {
  it('counts whole seconds of command time today, running time included, and starts again each UTC day', () => {
    const noon = Date.UTC(2026, 10, 24, 12);
    const budget = new DayBudget();
    budget.spend(1500, noon);
    budget.spend(2700, noon + 1000);
    expect(budget.report(2880, 0, noon + 2000)).toEqual({ day: '2026-11-24', spent: 4, of: 2880 });
    expect(budget.spent(800, noon + 2000)).toBe(5);
    const tomorrow = Date.UTC(2026, 10, 25, 0, 0, 1);
    expect(budget.report(2880, 0, tomorrow)).toEqual({ day: '2026-11-25', spent: 0, of: 2880 });
    expect(utcDay(Date.UTC(2026, 0, 1, 23, 59))).toBe('2026-01-01');
  });
});

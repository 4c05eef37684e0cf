// The review graph's scales and labels: drawn at the width shown, its
// text at least 12 px, the moves and scores where they belong.
import { describe, expect, it } from 'vitest';
import { GRAPH_FONT, GRAPH_HEIGHT, graphScales, MIN_GRAPH_WIDTH, tickStep, xTicks, yTicks } from '../src/view/review-graph';

describe('review graph: scales', () => {
  it('maps the first and last move to the plot edges, and back', () => {
    const scales = graphScales(100, 640);
    expect(scales.width).toBe(640);
    expect(scales.height).toBe(GRAPH_HEIGHT);
    expect(scales.x(0)).toBe(scales.plot.left);
    expect(scales.x(100)).toBe(scales.plot.right);
    expect(scales.plyAt(scales.x(37))).toBe(37);
    expect(scales.plyAt(-50)).toBe(0);
    expect(scales.plyAt(10_000)).toBe(100);
    expect(scales.plot.right).toBeLessThanOrEqual(640);
  });

  it('puts a higher expected score higher, 50 % in the middle', () => {
    const { y, plot } = graphScales(10, 500);
    expect(y(1)).toBe(plot.top);
    expect(y(0)).toBe(plot.bottom);
    expect(y(0.5)).toBe((plot.top + plot.bottom) / 2);
    expect(y(0.75)).toBeLessThan(y(0.25));
  });

  it('is never drawn narrower than a phone column, and a game of no moves still has a scale', () => {
    expect(graphScales(40, 120).width).toBe(MIN_GRAPH_WIDTH);
    const scales = graphScales(0, 400);
    expect(Number.isFinite(scales.x(0))).toBe(true);
    expect(scales.plyAt(200)).toBe(0);
  });
});

describe('review graph: labels', () => {
  it('writes its text at 12 px or more', () => {
    expect(GRAPH_FONT).toBeGreaterThanOrEqual(12);
  });

  it('labels the y axis in quarters of the expected score', () => {
    expect(yTicks().map((tick) => tick.label)).toEqual(['0%', '25%', '50%', '75%', '100%']);
  });

  it('labels moves from 0 at steps that leave room for the numbers, more of them on a wider graph', () => {
    expect(xTicks(8, 600)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    const wide = xTicks(120, 900);
    const narrow = xTicks(120, 300);
    expect(wide[0]).toBe(0);
    expect(wide.length).toBeGreaterThan(narrow.length);
    // At least 3.5 characters' room between labels.
    for (const [ticks, width] of [[wide, 900], [narrow, 300]] as const) expect((width / 120) * (ticks[1] - ticks[0])).toBeGreaterThanOrEqual(GRAPH_FONT * 3.5 - 1e-9);
    expect(tickStep(120, 900)).toBe(10);
  });
});

// A clock beside the board: the side's name, its time, and its byoyomi or
// increment; highlighted while it runs and red under ten seconds.

import { h, type VNode } from 'snabbdom';
import type { ClockState, Color, Handicap } from '../api';
import { formatClock, LOW_MS, type Reading } from '../clock';
import type { Ctrl } from '../ctrl';
import { t } from '../i18n';
import { sideName } from '../sides';
import type { VariantId } from '../variants';

const seconds = (ms: number): string => `${Math.round(ms / 100) / 10}`;

/** What a side's clock shows: its time, and the byoyomi or increment beside it. */
export function clockTexts(clock: ClockState, reading: Reading): { time: string; extra: string; byoyomi: boolean } {
  const byoyomi = reading.main <= 0 && clock.byoyomiMs > 0;
  const time = formatClock(byoyomi ? reading.byoyomi : reading.main);
  let extra = '';
  if (byoyomi) extra = t('clock.byoyomi');
  else if (clock.byoyomiMs > 0) extra = t('clock.plusByoyomi', { seconds: seconds(clock.byoyomiMs) });
  else if (clock.incrementMs > 0) extra = t('clock.plusIncrement', { seconds: seconds(clock.incrementMs) });
  return { time, extra, byoyomi };
}

/** One side's clock, `id` `clock-top` or `clock-bottom`, at the moment `now`. */
export function clockView(ctrl: Ctrl, id: string, side: Color, now: number): VNode {
  const clock = ctrl.clock.clock;
  const reading = ctrl.clock.read(side, now);
  if (!clock || !reading) return h(`div#${id}.clock`, { props: { hidden: true } });
  const state = ctrl.state!;
  return sideClock(id, state.variant, side, state.handicap, clock, reading);
}

/** A side's clock drawn from its reading. */
export function sideClock(id: string, variant: VariantId, side: Color, handicap: Handicap | undefined, clock: ClockState, reading: Reading): VNode {
  const { time, extra, byoyomi } = clockTexts(clock, reading);
  const name = sideName(variant, side, handicap);
  return h(
    `div#${id}.clock`,
    {
      props: { hidden: false },
      attrs: { role: 'timer', 'aria-label': t('clock.label', { side: name }) + (reading.running ? t('clock.running') : '') },
      dataset: {
        color: side,
        running: String(reading.running),
        low: String(reading.main + reading.byoyomi < LOW_MS),
        byoyomi: String(byoyomi),
      },
    },
    [h('span.clock-name', name), h('span.clock-time', time), h('span.clock-extra', extra)],
  );
}

// The new-game form in the top bar: the game (for shogi, a handicap and the
// impasse rule), the opponent (a person at this screen, a person on another
// machine, or the computer), the clock.

import type { Color, Level, NewGameOptions, Opponent, TimeControl } from './api';
import { moversOf } from './sides';
import { isVariantId, type VariantId } from './variants';

const STORAGE_VARIANT = 'koma.variant';
const STORAGE_CLOCK = 'koma.clock';

const byId = <T extends HTMLElement>(id: string): T => {
  const element = document.getElementById(id);
  if (!element) throw new Error(`The page lacks #${id}.`);
  return element as T;
};

/** What the form asks for. */
export interface NewGameChoice {
  variant: VariantId;
  options: NewGameOptions;
  /** In a game between two machines, the side this page plays. */
  mine?: Color;
}

/** `"300+3+10"`: main time, increment and byoyomi in seconds; empty for none. */
export function parseTimeControl(value: string): TimeControl | undefined {
  const match = /^(\d+)\+(\d+)\+(\d+)$/.exec(value);
  if (!match) return undefined;
  const [initial, increment, byoyomi] = match.slice(1).map(Number);
  const control: TimeControl = { initial };
  if (increment) control.increment = increment;
  if (byoyomi) control.byoyomi = byoyomi;
  return control;
}

export class NewGameForm {
  private readonly variant = byId<HTMLSelectElement>('variant');
  private readonly opponent = byId<HTMLSelectElement>('opponent');
  private readonly clock = byId<HTMLSelectElement>('time-control');
  private readonly handicap = byId<HTMLSelectElement>('handicap');
  private readonly impasse = byId<HTMLSelectElement>('impasse');

  constructor(onSubmit: () => void) {
    const storedVariant = localStorage.getItem(STORAGE_VARIANT) ?? '';
    if (isVariantId(storedVariant)) this.variant.value = storedVariant;
    const storedClock = localStorage.getItem(STORAGE_CLOCK) ?? '';
    if ([...this.clock.options].some((option) => option.value === storedClock)) this.clock.value = storedClock;
    byId<HTMLFormElement>('new-game').addEventListener('submit', (event) => {
      event.preventDefault();
      onSubmit();
    });
    for (const control of [this.opponent, this.variant, this.handicap, byId('perfect')])
      control.addEventListener('change', () => this.showOptions());
    this.showOptions();
  }

  selectedVariant(): VariantId {
    const value = this.variant.value;
    return isVariantId(value) ? value : 'spear';
  }

  /** Shows the game now on the board as the one chosen. */
  showVariant(variant: VariantId): void {
    this.variant.value = variant;
    this.showOptions();
  }

  /** The handicap chosen, when the game is shogi. */
  private chosenHandicap(): string | undefined {
    return this.selectedVariant() === 'shogi' && this.handicap.value ? this.handicap.value : undefined;
  }

  /** Whether the perfect player is chosen (Pawns-Only Chess only). */
  private perfectChosen(): boolean {
    return this.selectedVariant() === 'pawns' && byId<HTMLInputElement>('perfect').checked;
  }

  /** Back to a game between people at this screen (when the computer cannot play). */
  chooseLocal(): void {
    this.opponent.value = 'human';
    this.showOptions();
  }

  /** Reads the form, and remembers the game and clock chosen. */
  read(): NewGameChoice {
    const variant = this.selectedVariant();
    const handicap = this.chosenHandicap();
    const [first, second] = moversOf(variant, !!handicap);
    localStorage.setItem(STORAGE_VARIANT, variant);
    localStorage.setItem(STORAGE_CLOCK, this.clock.value);
    const clock = parseTimeControl(this.clock.value);
    const choice: NewGameChoice = { variant, options: { opponent: { kind: 'human' } } };
    if (clock) choice.options.clock = clock;
    if (handicap) choice.options.handicap = handicap;
    if (variant === 'shogi') choice.options.impasse = this.impasse.value === '24' ? 24 : 27;
    if (this.opponent.value === 'computer') {
      const level: Level = this.perfectChosen()
        ? 'perfect'
        : Math.min(20, Math.max(1, Number(byId<HTMLInputElement>('level').value) || 1));
      const color = byId<HTMLSelectElement>('computer-color').value === 'first' ? first : second;
      choice.options.opponent = { kind: 'computer', level, color } satisfies Opponent;
    } else if (this.opponent.value === 'remote') {
      choice.options.mode = 'shared';
      choice.mine = byId<HTMLSelectElement>('my-side').value === 'second' ? second : first;
    }
    return choice;
  }

  private showOptions(): void {
    byId('computer-options').hidden = this.opponent.value !== 'computer';
    byId('remote-options').hidden = this.opponent.value !== 'remote';
    byId('handicap-options').hidden = this.selectedVariant() !== 'shogi';
    byId('impasse-options').hidden = this.selectedVariant() !== 'shogi';
    // The perfect player (the solved game) exists for Pawns-Only Chess only.
    byId('perfect-option').hidden = this.selectedVariant() !== 'pawns';
    byId<HTMLInputElement>('level').disabled = this.perfectChosen();
    // In a handicap game the first mover is the giver: say so where a side is chosen.
    const handicap = !!this.chosenHandicap();
    for (const id of ['computer-color', 'my-side']) {
      for (const option of byId<HTMLSelectElement>(id).options) {
        const first = option.value === 'first';
        option.textContent = handicap ? (first ? 'first (Uwate, the giver)' : 'second (Shitate)') : option.value;
      }
    }
  }
}

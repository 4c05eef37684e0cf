// The new-game form's state: the game (for shogi, a handicap and the
// impasse rule), the opponent (a person at this screen, a person on another
// machine, or the computer: Koma's engine at a level, or an engine the server
// registered), the clock. view/newgame.ts draws it; the game, clock and
// engine chosen are remembered by the browser.

import type { Color, EngineInfo, Level, NewGameOptions, Opponent, TimeControl } from './api';
import { moversOf } from './sides';
import { isVariantId, type VariantId } from './variants';

const STORAGE_VARIANT = 'koma.variant';
const STORAGE_CLOCK = 'koma.clock';
const STORAGE_COMPUTER_ENGINE = 'koma.computerEngine';
/** Koma's own engine, as the server names it. */
const OWN_ENGINE = 'koma';

/** The clocks offered: `"main+increment+byoyomi"` in seconds ('' for none). */
export const TIME_CONTROLS: string[] = ['', '60+0+10', '300+0+10', '600+0+30', '180+2+0', '300+3+0'];

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

export type OpponentChoice = 'human' | 'remote' | 'computer';
export type Order = 'first' | 'second';

/** The form's fields, as the player set them. */
export class NewGameForm {
  variant: VariantId = 'spear';
  /** A handicap's API name, '' for an even game (shogi only). */
  handicap = '';
  impasse: 27 | 24 = 27;
  opponent: OpponentChoice = 'human';
  /** On two machines, the side this page plays. */
  mySide: Order = 'first';
  /** The computer's level, as typed. */
  level = '5';
  perfect = false;
  computerOrder: Order = 'second';
  /** A key of TIME_CONTROLS. */
  timeControl = '';
  /** The engine that plays the computer's side: Koma's own or a registered one's name. */
  engine = OWN_ENGINE;
  /** The engines the server has (`GET /api/engines`); Koma's own alone until known. */
  engines: EngineInfo[] = [];

  constructor(private readonly storage: Pick<Storage, 'getItem' | 'setItem'> | undefined = globalThis.localStorage) {
    const storedVariant = storage?.getItem(STORAGE_VARIANT) ?? '';
    if (isVariantId(storedVariant)) this.variant = storedVariant;
    const storedClock = storage?.getItem(STORAGE_CLOCK) ?? '';
    if (TIME_CONTROLS.includes(storedClock)) this.timeControl = storedClock;
    this.engine = storage?.getItem(STORAGE_COMPUTER_ENGINE) || OWN_ENGINE;
  }

  /** The engines registered with the server that play the game chosen (Koma's own not among them). */
  registeredEngines(): EngineInfo[] {
    return this.engines.filter((engine) => !engine.builtIn && engine.games.includes(this.variant));
  }

  /** The registered engine chosen to play, if it plays the game chosen; `undefined`: Koma's own. */
  chosenEngine(): string | undefined {
    return this.registeredEngines().some((engine) => engine.name === this.engine) ? this.engine : undefined;
  }

  /** The handicap chosen, when the game is shogi. */
  chosenHandicap(): string | undefined {
    return this.variant === 'shogi' && this.handicap ? this.handicap : undefined;
  }

  /** Whether the perfect player is chosen (Pawns-Only Chess only, and Koma's own engine). */
  perfectChosen(): boolean {
    return this.variant === 'pawns' && this.perfect && !this.chosenEngine();
  }

  /** Reads the form, and remembers the game and clock chosen. */
  read(): NewGameChoice {
    const variant = this.variant;
    const handicap = this.chosenHandicap();
    const [first, second] = moversOf(variant, !!handicap);
    this.storage?.setItem(STORAGE_VARIANT, variant);
    this.storage?.setItem(STORAGE_CLOCK, this.timeControl);
    const clock = parseTimeControl(this.timeControl);
    const choice: NewGameChoice = { variant, options: { opponent: { kind: 'human' } } };
    if (clock) choice.options.clock = clock;
    if (handicap) choice.options.handicap = handicap;
    if (variant === 'shogi') choice.options.impasse = this.impasse;
    if (this.opponent === 'computer') {
      const color = this.computerOrder === 'first' ? first : second;
      const engine = this.chosenEngine();
      this.storage?.setItem(STORAGE_COMPUTER_ENGINE, this.engine);
      if (engine) {
        // A registered engine plays at its own strength: no level.
        choice.options.opponent = { kind: 'computer', engine, color } satisfies Opponent;
      } else {
        const level: Level = this.perfectChosen() ? 'perfect' : Math.min(20, Math.max(1, Number(this.level) || 1));
        choice.options.opponent = { kind: 'computer', level, color } satisfies Opponent;
      }
    } else if (this.opponent === 'remote') {
      choice.options.mode = 'shared';
      choice.mine = this.mySide === 'second' ? second : first;
    }
    return choice;
  }
}

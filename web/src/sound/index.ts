// The board's sounds, for the page to use in a few lines:
//
//   const sounds = new Sounds({ lang: 'ja' });
//   // each state from the server (HTTP answer or WebSocket):
//   sounds.onState(previousState, state, mySide);
//   // when another game is shown or the page leaves it:
//   sounds.stop();
//   // the settings menu:
//   sounds.setVolume(50); sounds.setMuted(true); sounds.setLang('en');
//
// Moves, captures, checks, the end of the game, low time and notices are
// synthesized (synth.ts); the byoyomi count plays the voice files made by
// scripts/make-voices, or a beep a second when a file cannot be had. What
// to play is decided by the pure functions of decide.ts.
//
// SPDX-License-Identifier: GPL-3.0-or-later

import type { Color, GameState } from '../api';
import { ClockCues, type ClockCue, type SoundName, soundFor } from './decide';
import { type SettingsStore, type SoundSettings, browserStore, clampVolume, loadSettings, saveSettings, volumeGain } from './settings';
import { type AudioOut, countTone, synthesize } from './synth';

export type { ClockCue, SoundName } from './decide';
export { soundFor, ClockCues, readClock, lastMoveCaptured, boardPieces } from './decide';
export type { AudioOut } from './synth';
export { SOUND_NAMES } from './synth';
export { volumeGain } from './settings';

/** The byoyomi count's language. */
export type VoiceLang = 'ja' | 'en';

/** The seconds the count says, 1 to 10. */
const SECONDS = Array.from({ length: 10 }, (_, i) => i + 1);

/** How often the running clock is looked at for its sounds, in ms. */
const TICK_MS = 100;
/**
 * The voice files' loudness (RMS) is about -15 dBFS, the synthesized
 * sounds' -24 to -28 dBFS as Chromium's OfflineAudioContext renders them:
 * halved (-6 dB), the count stays a little above them, as a warning should.
 */
const VOICE_LEVEL = 0.5;
/** The gap between two sounds of one change (a move, then its check or the end), in seconds. */
const STEP_S = 0.12;

export interface SoundOptions {
  /** The count's language; `setLang` changes it. Default `ja`. */
  lang?: VoiceLang;
  /** Where volume and mute are kept; default the page's localStorage. */
  store?: SettingsStore | null;
  /** Makes the audio context, when a sound is first played; default `new AudioContext()`. */
  createContext?: () => AudioOut;
  /** Fetches a voice file's bytes; default `fetch`. */
  fetchBytes?: (url: string) => Promise<ArrayBuffer>;
  /** A voice file's address; default `/sound/voice/<lang>/<second>.mp3` (build.mjs copies them there). */
  voiceUrl?: (lang: VoiceLang, second: number) => string;
  /** The clock's time in ms; default `performance.now()`. */
  now?: () => number;
  /** Timers for watching the clock; default the window's. */
  setInterval?: (run: () => void, ms: number) => unknown;
  clearInterval?: (timer: unknown) => void;
  /**
   * Where to wait for the first click or key that lets the page make
   * sound (browsers keep audio off until one); default `document`, null for none.
   */
  gestures?: Pick<EventTarget, 'addEventListener' | 'removeEventListener'> | null;
}

/** A voice file: loading, ready, or failed for good (its beep stands in). */
type Voice = Promise<void> | AudioBuffer | 'failed';

/** The browser's audio context; Safari before 14.1 names it with a prefix. */
function newContext(): AudioOut {
  const prefixed = (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
  return new (window.AudioContext ?? prefixed)();
}

async function fetchBytes(url: string): Promise<ArrayBuffer> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return response.arrayBuffer();
}

/** What the page watches: the last state, when it came, and for which side. */
interface Watched {
  state: GameState;
  receivedAt: number;
  mySide: Color | null;
}

/**
 * The board's sounds: plays what each new state calls for, watches the
 * clock for the low-time warning and the byoyomi count, and keeps the
 * volume and mute chosen.
 */
export class Sounds {
  private settings: SoundSettings;
  private voiceLang: VoiceLang;
  private audio?: AudioOut;
  /** Set when no audio context could be made: sound is off for this page. */
  private noAudio = false;
  private master?: GainNode;
  private readonly voices = new Map<string, Voice>();
  private readonly cues = new ClockCues();
  private watched?: Watched;
  private timer?: unknown;
  private readonly options: Required<Omit<SoundOptions, 'lang' | 'store' | 'gestures'>> & {
    store: SettingsStore | null;
  };
  private readonly unlockOnGesture = (): void => this.unlock();
  private readonly gestures: SoundOptions['gestures'];

  /** Reads the kept settings; makes no sound and no audio context yet. */
  constructor(options: SoundOptions = {}) {
    this.options = {
      store: options.store === undefined ? browserStore() : options.store,
      createContext: options.createContext ?? newContext,
      fetchBytes: options.fetchBytes ?? fetchBytes,
      voiceUrl: options.voiceUrl ?? ((lang, second) => `/sound/voice/${lang}/${second}.mp3`),
      now: options.now ?? (() => performance.now()),
      setInterval: options.setInterval ?? ((run, ms) => window.setInterval(run, ms)),
      clearInterval: options.clearInterval ?? ((timer) => window.clearInterval(timer as number)),
    };
    this.settings = loadSettings(this.options.store);
    this.voiceLang = options.lang ?? 'ja';
    this.gestures = options.gestures === undefined ? (typeof document === 'undefined' ? null : document) : options.gestures;
    for (const type of ['pointerdown', 'keydown']) this.gestures?.addEventListener(type, this.unlockOnGesture);
  }

  /** 0 to 100. */
  get volume(): number {
    return this.settings.volume;
  }

  get muted(): boolean {
    return this.settings.muted;
  }

  get lang(): VoiceLang {
    return this.voiceLang;
  }

  /** Sets and keeps the volume (0–100). */
  setVolume(volume: number): void {
    this.settings = { ...this.settings, volume: clampVolume(volume) };
    saveSettings(this.options.store, this.settings);
    this.master?.gain.setValueAtTime(volumeGain(this.settings.volume), this.audio?.currentTime ?? 0);
  }

  /** Mutes or unmutes, and keeps it. Muted, nothing is played nor made. */
  setMuted(muted: boolean): void {
    this.settings = { ...this.settings, muted };
    saveSettings(this.options.store, this.settings);
    // Unmuting is a click: the moment a browser lets the page sound.
    if (!muted) this.unlock();
  }

  /** The count's language, as the page's. */
  setLang(lang: VoiceLang): void {
    this.voiceLang = lang;
    // Mid-game, the new language's words are wanted within seconds.
    if (this.hasByoyomi(this.watched?.state)) this.preloadVoice();
  }

  /**
   * Lets the page sound: makes or resumes the audio context. Call it from a
   * click or key handler; the constructor already waits for the first one.
   */
  unlock(): void {
    // Muted, wait for a later gesture: no context is made for nothing.
    if (this.settings.muted || !this.context()) return;
    // A resume asked for within a gesture is allowed: one is enough.
    for (const type of ['pointerdown', 'keydown']) this.gestures?.removeEventListener(type, this.unlockOnGesture);
  }

  /** Plays sounds now, one after another (a move, then its check). */
  play(...names: SoundName[]): void {
    const audio = this.settings.muted || names.length === 0 ? undefined : this.context();
    if (!audio) return;
    const out = this.output(audio);
    names.forEach((name, i) => synthesize(audio, out, name, audio.currentTime + i * STEP_S));
  }

  /** Says a byoyomi second (1–10) in the page's language, or beeps while its file is not there. */
  count(second: number): void {
    const audio = this.settings.muted ? undefined : this.context();
    if (!audio) return;
    const out = this.output(audio);
    const voice = this.voice(audio, this.voiceLang, second);
    if (voice !== 'failed' && !(voice instanceof Promise)) {
      const source = audio.createBufferSource();
      source.buffer = voice;
      const level = audio.createGain();
      level.gain.setValueAtTime(VOICE_LEVEL, audio.currentTime);
      source.connect(level);
      level.connect(out);
      source.start(audio.currentTime);
    } else {
      countTone(audio, out, second, audio.currentTime);
    }
  }

  /** Loads the count's voice in the page's language ahead of need (a game with byoyomi began). */
  preloadVoice(): void {
    const audio = this.settings.muted ? undefined : this.context();
    if (!audio) return;
    for (const second of SECONDS) this.voice(audio, this.voiceLang, second);
  }

  /**
   * Takes a new state of the game: plays what the change from `previous`
   * calls for ({@link soundFor}), then follows its clock, which sounds the
   * low-time warning and counts byoyomi ({@link ClockCues}) until the next
   * state or {@link stop}. `mySide` is this page's side (null: it plays both
   * or watches); `receivedAt` when the state arrived (`performance.now()`).
   */
  onState(previous: GameState | null, next: GameState, mySide: Color | null, receivedAt = this.options.now()): void {
    this.play(...soundFor(previous, next, mySide));
    this.watched = { state: next, receivedAt, mySide };
    if (this.hasByoyomi(next)) this.preloadVoice();
    const running = !!next.clock?.running && !next.outcome;
    if (running && this.timer === undefined) this.timer = this.options.setInterval(() => this.tick(), TICK_MS);
    if (!running) this.stopTimer();
    this.tick();
  }

  /** Stops following the clock and forgets its sounds (another game is shown). */
  stop(): void {
    this.stopTimer();
    this.watched = undefined;
    this.cues.reset();
  }

  /** Looks at the clock once and plays what it calls for. */
  tick(): void {
    const watched = this.watched;
    if (!watched) return;
    const cue = this.cues.next(watched.state, this.options.now() - watched.receivedAt, watched.mySide);
    if (cue) this.playCue(cue);
  }

  /** Whether `state` is a game going on with byoyomi, whose count the voice will say. */
  private hasByoyomi(state: GameState | undefined): boolean {
    return !!state?.clock && state.clock.byoyomiMs > 0 && !state.outcome;
  }

  private playCue(cue: ClockCue): void {
    if (cue.kind === 'count') this.count(cue.second);
    else this.play('lowTime');
  }

  private stopTimer(): void {
    if (this.timer !== undefined) this.options.clearInterval(this.timer);
    this.timer = undefined;
  }

  /** The audio context, made on first need; undefined where the browser has none (the page goes on silent). */
  private context(): AudioOut | undefined {
    if (this.noAudio) return undefined;
    try {
      this.audio ??= this.options.createContext();
    } catch {
      this.noAudio = true;
      return undefined;
    }
    // Browsers start a context made before any click suspended; resuming
    // after one is allowed, and refused quietly before.
    if (this.audio.state === 'suspended') this.audio.resume().catch(() => {});
    return this.audio;
  }

  /** Every sound goes through one gain: the volume. */
  private output(audio: AudioOut): GainNode {
    if (!this.master) {
      this.master = audio.createGain();
      this.master.connect(audio.destination);
    }
    this.master.gain.setValueAtTime(volumeGain(this.settings.volume), audio.currentTime);
    return this.master;
  }

  /** A voice file, loading it on first need; a failed one is not asked for again. */
  private voice(audio: AudioOut, lang: VoiceLang, second: number): Voice {
    const key = `${lang}/${second}`;
    const known = this.voices.get(key);
    if (known) return known;
    const loading = this.options
      .fetchBytes(this.options.voiceUrl(lang, second))
      .then((bytes) => audio.decodeAudioData(bytes))
      .then(
        (buffer) => void this.voices.set(key, buffer),
        () => void this.voices.set(key, 'failed'),
      );
    this.voices.set(key, loading);
    return loading;
  }
}

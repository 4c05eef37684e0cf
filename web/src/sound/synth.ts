// The board's sounds, synthesized with Web Audio: no sound file is
// shipped for them. Each is a few oscillators or a short noise burst with a
// soft envelope, under half a second, quiet at its peak, so that several
// at once never clip and nothing sounds harsh.
//
// SPDX-License-Identifier: GPL-3.0-or-later

import type { SoundName } from './decide';

/** What the sounds need of an AudioContext (a test passes a fake one). */
export type AudioOut = Pick<
  AudioContext,
  | 'currentTime'
  | 'sampleRate'
  | 'destination'
  | 'state'
  | 'resume'
  | 'createOscillator'
  | 'createGain'
  | 'createBiquadFilter'
  | 'createBuffer'
  | 'createBufferSource'
  | 'decodeAudioData'
>;

/** Silence for exponential ramps, which cannot reach 0. */
const SILENT = 0.0001;

interface Tone {
  frequency: number;
  /** When it starts, in the context's seconds. */
  at: number;
  /** The envelope's peak (0 to 1, before the volume) and its times in seconds. */
  peak: number;
  attack?: number;
  decay: number;
  type?: OscillatorType;
  /** A pitch to slide to over the decay (a knock's body drops a little). */
  glideTo?: number;
}

/** One oscillator through its own envelope into `out`. */
function tone(audio: AudioOut, out: AudioNode, t: Tone): void {
  const attack = t.attack ?? 0.005;
  const end = t.at + attack + t.decay;
  const oscillator = audio.createOscillator();
  oscillator.type = t.type ?? 'sine';
  oscillator.frequency.setValueAtTime(t.frequency, t.at);
  if (t.glideTo) oscillator.frequency.exponentialRampToValueAtTime(t.glideTo, end);
  const envelope = audio.createGain();
  envelope.gain.setValueAtTime(SILENT, t.at);
  envelope.gain.linearRampToValueAtTime(t.peak, t.at + attack);
  envelope.gain.exponentialRampToValueAtTime(SILENT, end);
  oscillator.connect(envelope);
  envelope.connect(out);
  oscillator.start(t.at);
  oscillator.stop(end + 0.02);
}

/** A burst of noise already decayed (time constant 6 ms), made once per context. */
const bursts = new WeakMap<AudioOut, AudioBuffer>();

function burst(audio: AudioOut): AudioBuffer {
  let buffer = bursts.get(audio);
  if (buffer) return buffer;
  const rate = audio.sampleRate;
  const length = Math.ceil(rate * 0.04);
  buffer = audio.createBuffer(1, length, rate);
  const samples = buffer.getChannelData(0);
  // A fixed pseudo-random sequence: every click sounds the same, and tests
  // see the same samples.
  let seed = 0x2545f491;
  for (let i = 0; i < length; i++) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    const white = seed / 0x80000000 - 1;
    samples[i] = white * Math.exp(-i / (rate * 0.006));
  }
  bursts.set(audio, buffer);
  return buffer;
}

/** The noise burst through a band-pass filter: the hard contact of wood on wood. */
function contact(audio: AudioOut, out: AudioNode, at: number, frequency: number, peak: number): void {
  const source = audio.createBufferSource();
  source.buffer = burst(audio);
  const filter = audio.createBiquadFilter();
  filter.type = 'bandpass';
  filter.frequency.setValueAtTime(frequency, at);
  filter.Q.setValueAtTime(1.8, at);
  const gain = audio.createGain();
  gain.gain.setValueAtTime(peak, at);
  source.connect(filter);
  filter.connect(gain);
  gain.connect(out);
  source.start(at);
}

/**
 * A piece set down: a click (filtered noise) over the short, falling ring
 * of a wooden body, as a koma on a kaya board. `pitch` below 1 for a
 * heavier, lower knock.
 */
function knock(audio: AudioOut, out: AudioNode, at: number, pitch = 1, loudness = 1): void {
  contact(audio, out, at, 2400 * pitch, 0.55 * loudness);
  tone(audio, out, { frequency: 520 * pitch, glideTo: 430 * pitch, at, peak: 0.3 * loudness, attack: 0.002, decay: 0.07 });
  tone(audio, out, { frequency: 1330 * pitch, at, peak: 0.08 * loudness, attack: 0.001, decay: 0.03, type: 'triangle' });
}

/** Notes, soft sine with a little triangle, one after another `step` seconds apart. */
function notes(audio: AudioOut, out: AudioNode, at: number, frequencies: number[], step: number, decay: number, peak = 0.18): void {
  frequencies.forEach((frequency, i) => {
    const start = at + i * step;
    tone(audio, out, { frequency, at: start, peak, attack: 0.01, decay });
    tone(audio, out, { frequency: frequency * 2, at: start, peak: peak * 0.15, attack: 0.01, decay: decay * 0.6, type: 'triangle' });
  });
}

// Equal-tempered pitches used below.
const C4 = 261.63;
const EB4 = 311.13;
const G4 = 392.0;
const A4 = 440.0;
const C5 = 523.25;
const D5 = 587.33;
const E5 = 659.25;
const FS5 = 739.99;
const G5 = 783.99;
const A5 = 880.0;
const B5 = 987.77;
const C6 = 1046.5;

/** How each sound is made, into `out`, starting at `at` (the context's seconds). */
const SOUNDS: Record<SoundName, (audio: AudioOut, out: AudioNode, at: number) => void> = {
  move: (audio, out, at) => knock(audio, out, at),
  // The taken piece lifted with a light tap, then the taker set down hard.
  capture: (audio, out, at) => {
    knock(audio, out, at, 1.25, 0.45);
    knock(audio, out, at + 0.06, 0.85, 1.15);
  },
  // A two-note chime, rising: attention without alarm.
  check: (audio, out, at) => notes(audio, out, at, [FS5, B5], 0.09, 0.22, 0.14),
  victory: (audio, out, at) => notes(audio, out, at, [C5, E5, G5, C6], 0.1, 0.45),
  defeat: (audio, out, at) => notes(audio, out, at, [G4, EB4, C4], 0.16, 0.55),
  // An open fifth struck twice: neither rising nor falling.
  draw: (audio, out, at) => {
    notes(audio, out, at, [G4, D5], 0, 0.35, 0.13);
    notes(audio, out, at + 0.22, [G4, D5], 0, 0.5, 0.13);
  },
  end: (audio, out, at) => notes(audio, out, at, [E5, C5, G4], 0.12, 0.5),
  // Two quiet ticks, as a clock's.
  lowTime: (audio, out, at) => {
    tone(audio, out, { frequency: 1250, at, peak: 0.16, attack: 0.002, decay: 0.05 });
    tone(audio, out, { frequency: 1250, at: at + 0.18, peak: 0.16, attack: 0.002, decay: 0.05 });
  },
  notice: (audio, out, at) => notes(audio, out, at, [E5, A5], 0.12, 0.4, 0.15),
};

/** Plays `name` into `out` at `at`. */
export function synthesize(audio: AudioOut, out: AudioNode, name: SoundName, at: number): void {
  SOUNDS[name](audio, out, at);
}

/**
 * The byoyomi count without its voice (the file failed to load, or not yet):
 * a short beep a second, higher for the last three so that they still say
 * the time is nearly out.
 */
export function countTone(audio: AudioOut, out: AudioNode, second: number, at: number): void {
  tone(audio, out, { frequency: second <= 3 ? A5 * 1.5 : A4 * 2, at, peak: 0.2, attack: 0.004, decay: 0.12 });
}

/** The sounds' names, for a settings page that lets one hear each. */
export const SOUND_NAMES = Object.keys(SOUNDS) as SoundName[];

// The sounds through a fake AudioContext: what is made, started, and how
// loud, without a browser.

import { describe, expect, it } from 'vitest';
import { SOUND_NAMES, Sounds, type AudioOut, volumeGain } from '../src/sound';
import { clock, shogi } from './sound-fixture';

class FakeParam {
  value = 0;
  readonly events: [string, number, number][] = [];
  setValueAtTime(value: number, time: number): this {
    this.value = value;
    this.events.push(['set', value, time]);
    return this;
  }
  linearRampToValueAtTime(value: number, time: number): this {
    this.events.push(['linear', value, time]);
    return this;
  }
  exponentialRampToValueAtTime(value: number, time: number): this {
    if (value <= 0) throw new RangeError('an exponential ramp cannot reach 0');
    this.events.push(['exponential', value, time]);
    return this;
  }
}

class FakeNode {
  readonly outputs: FakeNode[] = [];
  constructor(readonly kind: string) {}
  connect(node: FakeNode): FakeNode {
    this.outputs.push(node);
    return node;
  }
  /** Whether a path of connections leads from here to `target`. */
  reaches(target: FakeNode): boolean {
    return this === target || this.outputs.some((node) => node.reaches(target));
  }
}

class FakeScheduled extends FakeNode {
  started?: number;
  stopped?: number;
  start(time = 0): void {
    if (this.started !== undefined) throw new Error('started twice');
    this.started = time;
  }
  stop(time = 0): void {
    this.stopped = time;
  }
}

class FakeOscillator extends FakeScheduled {
  type = 'sine';
  readonly frequency = new FakeParam();
}

class FakeSource extends FakeScheduled {
  buffer: FakeBuffer | null = null;
}

class FakeGain extends FakeNode {
  readonly gain = new FakeParam();
}

class FakeFilter extends FakeNode {
  type = 'lowpass';
  readonly frequency = new FakeParam();
  readonly Q = new FakeParam();
}

class FakeBuffer {
  private readonly data: Float32Array;
  constructor(readonly numberOfChannels: number, readonly length: number, readonly sampleRate: number) {
    this.data = new Float32Array(length);
  }
  getChannelData(): Float32Array {
    return this.data;
  }
}

/** Records every node it makes. */
class FakeContext {
  currentTime = 5;
  readonly sampleRate = 48_000;
  readonly destination = new FakeNode('destination');
  state: 'running' | 'suspended' = 'running';
  resumed = 0;
  readonly oscillators: FakeOscillator[] = [];
  readonly sources: FakeSource[] = [];
  readonly gains: FakeGain[] = [];
  readonly decoded: ArrayBuffer[] = [];
  resume(): Promise<void> {
    this.resumed++;
    this.state = 'running';
    return Promise.resolve();
  }
  createOscillator(): FakeOscillator {
    const node = new FakeOscillator('oscillator');
    this.oscillators.push(node);
    return node;
  }
  createBufferSource(): FakeSource {
    const node = new FakeSource('source');
    this.sources.push(node);
    return node;
  }
  createGain(): FakeGain {
    const node = new FakeGain('gain');
    this.gains.push(node);
    return node;
  }
  createBiquadFilter(): FakeFilter {
    return new FakeFilter('filter');
  }
  createBuffer(channels: number, length: number, rate: number): FakeBuffer {
    return new FakeBuffer(channels, length, rate);
  }
  decodeAudioData(bytes: ArrayBuffer): Promise<FakeBuffer> {
    this.decoded.push(bytes);
    return Promise.resolve(new FakeBuffer(1, 1000, this.sampleRate));
  }
  /** Every node started, oscillators and sources. */
  started(): FakeScheduled[] {
    return [...this.oscillators, ...this.sources].filter((node) => node.started !== undefined);
  }
}

/** A map standing in for localStorage. */
class MemoryStore {
  readonly items = new Map<string, string>();
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.items.set(key, value);
  }
}

interface Rig {
  sounds: Sounds;
  audio: FakeContext;
  store: MemoryStore;
  fetched: string[];
  contexts: () => number;
  time: { now: number };
  intervals: (() => void)[];
}

/** A Sounds on fakes; `voices` says whether voice files load. */
function rig(voices: 'load' | 'fail' | 'hang' = 'load', store = new MemoryStore()): Rig {
  const audio = new FakeContext();
  const fetched: string[] = [];
  let contexts = 0;
  const time = { now: 0 };
  const intervals: (() => void)[] = [];
  const sounds = new Sounds({
    lang: 'ja',
    store,
    gestures: null,
    createContext: () => {
      contexts++;
      return audio as unknown as AudioOut;
    },
    fetchBytes: (url) => {
      fetched.push(url);
      if (voices === 'load') return Promise.resolve(new ArrayBuffer(8));
      if (voices === 'fail') return Promise.reject(new Error('404'));
      return new Promise<ArrayBuffer>(() => {});
    },
    now: () => time.now,
    setInterval: (run) => intervals.push(run),
    clearInterval: () => intervals.splice(0),
  });
  return { sounds, audio, store, fetched, contexts: () => contexts, time, intervals };
}

/** Lets the fake fetches and decodes settle. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

/** The master gain: the one gain connected straight to the destination. */
function master(audio: FakeContext): FakeGain {
  const found = audio.gains.filter((gain) => gain.outputs.includes(audio.destination));
  expect(found).toHaveLength(1);
  return found[0];
}

describe('the synthesized sounds', () => {
  it.each(SOUND_NAMES)('%s starts its nodes now, stops its oscillators, and goes through the volume', (name) => {
    const { sounds, audio } = rig();
    sounds.play(name);
    const started = audio.started();
    expect(started.length).toBeGreaterThan(0);
    for (const node of started) {
      expect(node.started).toBeGreaterThanOrEqual(audio.currentTime);
      expect(node.started).toBeLessThan(audio.currentTime + 1);
      expect(node.reaches(master(audio))).toBe(true);
    }
    for (const oscillator of audio.oscillators) {
      expect(oscillator.stopped).toBeGreaterThan(oscillator.started ?? Infinity);
      // Short: nothing rings past a second.
      expect(oscillator.stopped).toBeLessThan(audio.currentTime + 1);
    }
  });

  it('makes a move a click of noise over a wooden ring, and a capture two', () => {
    const { sounds, audio } = rig();
    sounds.play('move');
    expect(audio.sources).toHaveLength(1);
    expect(audio.sources[0].buffer?.length).toBeGreaterThan(0);
    expect(audio.oscillators.length).toBeGreaterThan(0);
    sounds.play('capture');
    expect(audio.sources).toHaveLength(3);
  });

  it('plays a change’s sounds one after another', () => {
    const { sounds, audio } = rig();
    sounds.play('move', 'check');
    const starts = audio.started().map((node) => node.started ?? 0);
    expect(Math.min(...starts)).toBe(audio.currentTime);
    expect(Math.max(...starts)).toBeGreaterThan(audio.currentTime + 0.1);
  });

  it('keeps every envelope under full scale', () => {
    const { sounds, audio } = rig();
    for (const name of SOUND_NAMES) sounds.play(name);
    for (const gain of audio.gains) {
      if (gain === master(audio)) continue;
      for (const [, value] of gain.gain.events) expect(value).toBeLessThanOrEqual(1);
    }
  });

  it('resumes a context the browser started suspended', () => {
    const { sounds, audio } = rig();
    audio.state = 'suspended';
    sounds.play('move');
    expect(audio.resumed).toBe(1);
  });
});

describe('volume and mute', () => {
  it('scales the master gain by the volume, as its square', () => {
    const { sounds, audio } = rig();
    sounds.setVolume(100);
    sounds.play('move');
    expect(master(audio).gain.value).toBe(1);
    sounds.setVolume(50);
    expect(master(audio).gain.value).toBeCloseTo(0.25);
    sounds.play('move');
    expect(master(audio).gain.value).toBeCloseTo(0.25);
    sounds.setVolume(0);
    expect(master(audio).gain.value).toBe(0);
    expect(volumeGain(70)).toBeCloseTo(0.49);
    expect(volumeGain(150)).toBe(1);
    expect(volumeGain(-3)).toBe(0);
  });

  it('plays nothing and makes no context while muted', () => {
    const { sounds, audio, contexts } = rig();
    sounds.setMuted(true);
    for (const name of SOUND_NAMES) sounds.play(name);
    sounds.count(5);
    sounds.preloadVoice();
    sounds.onState(shogi(0), shogi(1), 'sente');
    sounds.unlock();
    expect(contexts()).toBe(0);
    expect(audio.started()).toHaveLength(0);
    sounds.setMuted(false);
    sounds.play('move');
    expect(audio.started().length).toBeGreaterThan(0);
  });

  it('remembers volume and mute in the store', () => {
    const store = new MemoryStore();
    const first = rig('load', store).sounds;
    expect(first.volume).toBe(70);
    expect(first.muted).toBe(false);
    first.setVolume(33.4);
    first.setMuted(true);
    const again = rig('load', store).sounds;
    expect(again.volume).toBe(33);
    expect(again.muted).toBe(true);
  });

  it('falls back to the defaults on a broken store', () => {
    const store = new MemoryStore();
    store.setItem('koma.sound.volume', 'loud');
    expect(rig('load', store).sounds.volume).toBe(70);
    const refusing = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
    };
    const sounds = new Sounds({ store: refusing, gestures: null, createContext: () => new FakeContext() as unknown as AudioOut });
    expect(sounds.volume).toBe(70);
    sounds.setVolume(10);
    expect(sounds.volume).toBe(10);
  });
});

describe('a browser without Web Audio', () => {
  it('goes on silent: nothing throws, and no context is asked for again', () => {
    let asked = 0;
    const sounds = new Sounds({
      store: null,
      gestures: null,
      createContext: () => {
        asked++;
        throw new ReferenceError('AudioContext is not defined');
      },
      setInterval: () => 0,
      clearInterval: () => {},
    });
    expect(() => {
      sounds.play('move', 'check');
      sounds.count(3);
      sounds.onState(shogi(0), shogi(1, { clock: clock('sente', 0, 5_000, { byoyomiMs: 30_000 }) }), null);
      sounds.unlock();
    }).not.toThrow();
    expect(asked).toBe(1);
  });
});

describe('the byoyomi count', () => {
  it('plays the voice file of the second in the page’s language', async () => {
    const { sounds, audio, fetched } = rig();
    sounds.preloadVoice();
    expect(fetched).toHaveLength(10);
    expect(fetched).toContain('/sound/voice/ja/7.mp3');
    await settle();
    expect(audio.decoded).toHaveLength(10);
    sounds.count(7);
    expect(audio.oscillators).toHaveLength(0);
    expect(audio.sources).toHaveLength(1);
    expect(audio.sources[0].buffer).not.toBeNull();
    expect(audio.sources[0].started).toBe(audio.currentTime);
    expect(audio.sources[0].reaches(master(audio))).toBe(true);
    sounds.setLang('en');
    sounds.count(3);
    expect(fetched).toContain('/sound/voice/en/3.mp3');
  });

  it('loads the voice when a game with byoyomi is followed, and again when the language changes', () => {
    const { sounds, fetched } = rig();
    sounds.onState(null, shogi(2), 'sente');
    expect(fetched).toHaveLength(0);
    sounds.onState(null, shogi(2, { clock: clock('sente', 60_000, 30_000, { byoyomiMs: 30_000 }) }), 'sente');
    expect(fetched.filter((url) => url.includes('/ja/'))).toHaveLength(10);
    sounds.setLang('en');
    expect(fetched.filter((url) => url.includes('/en/'))).toHaveLength(10);
    expect(fetched).toHaveLength(20);
  });

  it('beeps while the file loads and when it failed, and asks for a failed file once', async () => {
    const hanging = rig('hang');
    hanging.sounds.count(10);
    expect(hanging.audio.oscillators).toHaveLength(1);
    expect(hanging.audio.sources).toHaveLength(0);

    const failing = rig('fail');
    failing.sounds.count(2);
    await settle();
    failing.sounds.count(2);
    expect(failing.audio.oscillators).toHaveLength(2);
    expect(failing.audio.oscillators.every((oscillator) => oscillator.started !== undefined)).toBe(true);
    expect(failing.fetched).toEqual(['/sound/voice/ja/2.mp3']);
  });
});

describe('following a game', () => {
  it('plays what each new state calls for', () => {
    const { sounds, audio } = rig();
    sounds.onState(null, shogi(2), 'sente');
    expect(audio.started()).toHaveLength(0);
    sounds.onState(shogi(2), shogi(3), 'sente');
    expect(audio.sources).toHaveLength(2); // a capture: two clicks
  });

  it('counts byoyomi from its own timer, each second once, and stops with the game', async () => {
    const { sounds, audio, time, intervals } = rig();
    const state = shogi(2, { clock: clock('sente', 0, 12_000, { byoyomiMs: 30_000 }) });
    time.now = 1_000;
    sounds.onState(shogi(1), state, 'sente');
    await settle(); // the voices loaded
    const clicks = audio.sources.length;
    expect(intervals).toHaveLength(1);
    for (let t = 1_000; t <= 14_000; t += 100) {
      time.now = t;
      intervals[0]();
    }
    expect(audio.sources.length - clicks).toBe(10);
    sounds.stop();
    expect(intervals).toHaveLength(0);
  });

  it("does not count the opponent's byoyomi for a page with one side", () => {
    const { sounds, audio, time, intervals } = rig();
    const state = shogi(2, { clock: clock('gote', 0, 8_000, { byoyomiMs: 30_000 }) });
    sounds.onState(null, state, 'sente');
    time.now = 5_000;
    intervals[0]();
    expect(audio.started()).toHaveLength(0);
  });

  it('warns of low time once', () => {
    const { sounds, audio, time, intervals } = rig();
    sounds.onState(null, shogi(2, { clock: clock('sente', 40_000, 0) }), null);
    expect(audio.oscillators).toHaveLength(0);
    time.now = 3_000;
    intervals[0]();
    expect(audio.oscillators).toHaveLength(2); // two ticks
    time.now = 6_000;
    intervals[0]();
    expect(audio.oscillators).toHaveLength(2);
  });
});

// The browser's localStorage for the unit tests, which run in Node: a Map,
// emptied before each test.
import { beforeEach } from 'vitest';

class MemoryStorage implements Storage {
  private items = new Map<string, string>();
  get length(): number {
    return this.items.size;
  }
  clear(): void {
    this.items.clear();
  }
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  key(index: number): string | null {
    return [...this.items.keys()][index] ?? null;
  }
  removeItem(key: string): void {
    this.items.delete(key);
  }
  setItem(key: string, value: string): void {
    this.items.set(key, String(value));
  }
}

Object.defineProperty(globalThis, 'localStorage', { value: new MemoryStorage(), configurable: true });
beforeEach(() => localStorage.clear());

// snabbdom's style module reads `window` when it loads; Node has none. The
// views are only built here (never patched into a document), so the global
// object stands in for it.
if (!('window' in globalThis)) Object.defineProperty(globalThis, 'window', { value: globalThis, configurable: true });

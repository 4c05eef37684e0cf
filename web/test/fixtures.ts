// Game states and stand-ins for the server and the live connection, for
// the unit tests of the state and the views.
import type { VNode } from 'snabbdom';
import { ApiError, type GameState, type PlayedMove } from '../src/api';
import { Ctrl } from '../src/ctrl';
import type { LiveConnection, LiveHandlers } from '../src/socket';
import type { Server } from '../src/xhr';

export const SENTE_TOKEN = 'a'.repeat(32);
export const GOTE_TOKEN = 'b'.repeat(32);

/** A Spear game at its start, between people at one screen, both seats in the answer. */
export function spearState(overrides: Partial<GameState> = {}): GameState {
  return {
    id: '0123456789abcdef',
    variant: 'spear',
    version: 1,
    ply: 0,
    start: 'lbsgk/4p/5/P4/KGSBL b - 1',
    position: 'lbsgk/4p/5/P4/KGSBL b - 1',
    turn: 'sente',
    check: false,
    hands: null,
    legalMoves: ['5d5c', '4e4d'],
    moves: [],
    lastMove: null,
    outcome: null,
    headers: {},
    opponent: { kind: 'human' },
    mode: 'local',
    guarded: true,
    takeback: null,
    clock: null,
    seats: { sente: SENTE_TOKEN, gote: GOTE_TOKEN },
    ...overrides,
  };
}

/** A move as the server lists it. */
export function played(usi: string, notation: string, color: 'sente' | 'gote', position = 'lbsgk/4p/5/P4/KGSBL w - 2'): PlayedMove {
  return { usi, notation, color, position, check: false };
}

/** The state after `moves` (each a played move) from `state`. */
export function after(state: GameState, moves: PlayedMove[], overrides: Partial<GameState> = {}): GameState {
  const all = [...state.moves, ...moves];
  return {
    ...state,
    version: state.version + moves.length,
    ply: all.length,
    moves: all,
    lastMove: all[all.length - 1]?.usi ?? null,
    turn: all.length % 2 === 0 ? 'sente' : 'gote',
    position: all[all.length - 1]?.position ?? state.start,
    ...overrides,
  };
}

/** A live connection that records what it was asked. */
export class FakeLive implements LiveConnection {
  analyses: ({ ply: number; moves: string[]; lines?: number } | undefined)[] = [];
  reviews: boolean[] = [];
  closed = false;
  /** What the page gave the connection, by which a test sends it messages. */
  constructor(readonly handlers?: LiveHandlers) {}
  analyse(request?: { ply: number; moves: string[]; lines?: number }): void {
    this.analyses.push(request);
  }
  /** What the second engine was asked. */
  seconds: ({ ply: number; moves: string[]; lines?: number; engine?: string } | undefined)[] = [];
  analyseSecond(request?: { ply: number; moves: string[]; lines?: number; engine?: string }): void {
    this.seconds.push(request);
  }
  review(start: boolean): void {
    this.reviews.push(start);
  }
  close(): void {
    this.closed = true;
  }
}

/** A server that answers with what a test gives it, and records the calls. */
export function fakeServer(answers: Partial<Server>): Server & { calls: string[] } {
  const calls: string[] = [];
  const missing = (name: string) => () => Promise.reject(new ApiError(`${name} was not expected`, 500));
  const server = {} as Record<string, unknown>;
  for (const name of ['newGame', 'getGame', 'playMove', 'undo', 'resign', 'declare', 'rematch', 'editDetails', 'openText', 'openFile', 'saveRecord', 'findMate']) {
    const answer = (answers as Record<string, (...args: unknown[]) => unknown>)[name] ?? missing(name);
    server[name] = (...args: unknown[]) => {
      calls.push(`${name} ${JSON.stringify(args)}`);
      return answer(...args);
    };
  }
  return Object.assign(server as unknown as Server, { calls });
}

/** A state with a fake server and connection; `redraws` counts the redraws asked. */
export function makeCtrl(server: Server): { ctrl: Ctrl; lives: FakeLive[]; redraws: () => number; urls: string[] } {
  const lives: FakeLive[] = [];
  const urls: string[] = [];
  let redraws = 0;
  const ctrl = new Ctrl(
    {
      server,
      connect: (_id, handlers) => {
        const live = new FakeLive(handlers);
        lives.push(live);
        return live;
      },
      showGameId: (id) => urls.push(id),
      now: () => 1000,
    },
    () => redraws++,
  );
  return { ctrl, lives, redraws: () => redraws, urls };
}

/** Every vnode of a tree, depth first. */
export function allNodes(vnode: VNode): VNode[] {
  return [vnode, ...(vnode.children ?? []).flatMap((child) => (typeof child === 'string' ? [] : allNodes(child)))];
}

/** The vnode whose selector names `id` (`#id`). */
export function byId(vnode: VNode, id: string): VNode | undefined {
  return allNodes(vnode).find((node) => new RegExp(`#${id}(\\.|$)`).test(node.sel ?? ''));
}

/** The vnodes that carry class `name`, by selector or class module. */
export function byClass(vnode: VNode, name: string): VNode[] {
  return allNodes(vnode).filter((node) => (node.sel ?? '').split('.').slice(1).includes(name) || node.data?.class?.[name] === true);
}

/** The text of a tree, as the page would show it. */
export function text(vnode: VNode | string | undefined): string {
  if (vnode === undefined) return '';
  if (typeof vnode === 'string') return vnode;
  return (vnode.text ?? '') + (vnode.children ?? []).map((child) => text(child)).join('');
}

/** Whether the vnode is hidden by its `hidden` property. */
export const hidden = (vnode: VNode | undefined): boolean => !!vnode?.data?.props?.hidden;

// Koma in the browser: the entry point that esbuild bundles into app.js. It
// wires the state (ctrl.ts) to the page: every change of the state draws
// the view again (view/layout.ts) and patches the page with snabbdom; the
// board widget lives in ground.ts; the keys, the address and the page's
// visibility are passed to the state.

import 'chessground/assets/chessground.base.css';
import './style.css';
import './themes.css';
import './pages.css';
import { attributesModule, classModule, datasetModule, eventListenersModule, init, propsModule, styleModule, type VNode } from 'snabbdom';
import { Ctrl } from './ctrl';
import { Ground } from './ground';
import { language } from './i18n';
import { Sounds } from './sound';
import { applyTheme, readThemeSettings } from './themes';
import { putGameIdInUrl, routeFromUrl } from './route';
import { Live } from './socket';
import { view } from './view/layout';
import { pageData, pageTitle } from './view/page-data';
import * as xhr from './xhr';

// The colours, board and pieces chosen before, in force before the first
// drawing, so that a forced dark page does not flash light.
applyTheme(readThemeSettings());

const patch = init([classModule, attributesModule, propsModule, styleModule, datasetModule, eventListenersModule]);

let vnode: VNode | Element = document.getElementById('app')!;
let drawing = false;
let again = false;

/**
 * Draws the page at once, as the player's action or the server's answer
 * comes (a test, or a person, sees the change without waiting for a frame).
 * A change asked while the page is being drawn (a widget's hook) draws it
 * again right after.
 */
function redraw(): void {
  if (drawing) {
    again = true;
    return;
  }
  drawing = true;
  try {
    do {
      again = false;
      draw();
    } while (again);
  } finally {
    drawing = false;
  }
}

function draw(): void {
  vnode = patch(vnode, view(ctrl, ground, performance.now()));
  Object.assign(document.body.dataset, pageData(ctrl));
  document.title = pageTitle(ctrl);
  document.documentElement.lang = language();
}

const ctrl = new Ctrl(
  {
    server: xhr,
    connect: (id, handlers) => new Live(id, handlers),
    showGameId: putGameIdInUrl,
    sounds: new Sounds({ lang: language() }),
    applyTheme,
    engines: xhr.engines,
  },
  redraw,
);
const ground = new Ground(
  (usi) => ctrl.playMove(usi),
  (usi) => ctrl.setPremove(usi),
);

document.addEventListener('keydown', (event) => {
  const target = event.target as HTMLElement | null;
  if (target && /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName)) return;
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  const action = ctrl.keyAction(event.key);
  if (action) {
    event.preventDefault();
    action();
  }
});
window.addEventListener('hashchange', () => {
  const route = routeFromUrl();
  // Another page (a card's Rules, a link between rules pages) opens at its top.
  if (route.page === 'start' || route.page === 'rules') window.scrollTo(0, 0);
  void ctrl.go(route);
});
document.addEventListener('visibilitychange', () => ctrl.setPageHidden(document.visibilityState === 'hidden'));
ctrl.analysis.hidden = document.visibilityState === 'hidden';
redraw();
void ctrl.start(routeFromUrl());

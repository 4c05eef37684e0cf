// Koma in the browser: the entry point that esbuild bundles into app.js.

import 'chessground/assets/chessground.base.css';
import './style.css';
import { App } from './app';

void new App().start();

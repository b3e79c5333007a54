// The engine's worker, started as soon as the page has been read: index.html loads this
// module before main.js, whose many modules would otherwise hold the boot back until
// every one of them had arrived. main.js takes the engine up (Engine.listen).

import { Engine } from "./engine.js";

export const engine = new Engine();

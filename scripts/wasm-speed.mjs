// The WebAssembly side of the speed comparison (scripts/wasm-speed): random playouts and ISMCTS
// simulations per second of the module scripts/build-web built, under node, printed as one JSON
// line. node scripts/wasm-speed.mjs PKG_DIR GAMES SIMULATIONS SEARCHES
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [pkg, games, simulations, searches] = process.argv.slice(2);
const module = await import(pathToFileURL(resolve(pkg, "indigo_wasm.js")).href);
await module.default({ module_or_path: readFileSync(join(pkg, "indigo_wasm_bg.wasm")) });

const rules = new module.Rules(2, 1);
let start = performance.now();
const placements = module.randomPlayouts(rules, 2026, Number(games));
const playoutS = (performance.now() - start) / 1000;

start = performance.now();
for (let search = 0; search < Number(searches); search++) {
  const game = new module.Game(rules, search);
  new module.Bot(`ismcts:${simulations}`, search).choose(game);
}
const searchS = (performance.now() - start) / 1000;
console.log(JSON.stringify({
  games_per_s: Math.round(Number(games) / playoutS),
  placements_per_s: Math.round(placements / playoutS),
  ismcts_sims_per_s: Math.round((Number(simulations) * Number(searches)) / searchS),
}));

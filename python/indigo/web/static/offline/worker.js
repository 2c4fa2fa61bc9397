// The offline page's engine, in a Web Worker so that a bot's search never freezes the page:
// loads the WebAssembly module (pkg/, built by scripts/build-web) and answers each request of
// app.js ({id, method, url, body}) with the offline server's answer ({id, status, data} or
// {id, status, text, type}), one request at a time, in order.
import init, * as wasm from "./pkg/indigo_wasm.js";
import { OfflineServer } from "./engine.js";

const ready = (async () => {
  await init();
  const data = await (await fetch(new URL("./data.json", import.meta.url))).json();
  return new OfflineServer(wasm, data);
})();

let queue = Promise.resolve();

self.addEventListener("message", (event) => {
  const { id, method, url, body } = event.data;
  queue = queue.then(async () => {
    let answer;
    try {
      answer = await (await ready).handle(method, url, body);
    } catch (error) {
      answer = { status: 500, data: { error: `the engine did not load: ${error.message}` } };
    }
    self.postMessage({ id, ...answer });
  });
});

// The page's worker: runs the engines off the main thread so the page never freezes. Built into
// a Blob URL together with engine.js (see scripts/build-web), so it starts from file:// too.
// Messages in: {wasm: the compiled WebAssembly.Module} once, then {id, request} or
// {id, race: {n, fix, block, seed}}; out:
// {id, answer, ms} (ms measured here with performance.now(): the engines' clock stands still
// in the browser).
/* global NQEngine */
"use strict";
var engine = null;
self.onmessage = function (event) {
  var data = event.data;
  if (data.wasm) {
    engine = NQEngine.fromModule(data.wasm);
    return;
  }
  if (data.race) {
    var results = [];
    var methods = engine.call({ op: "methods" }).methods;
    for (var i = 0; i < methods.length; i++) {
      var request = {
        op: "solve",
        n: data.race.n,
        fix: data.race.fix,
        block: data.race.block,
        method: methods[i],
        seed: data.race.seed,
      };
      var start = performance.now();
      var answer = engine.call(request);
      results.push({ method: methods[i], answer: answer, ms: performance.now() - start });
      self.postMessage({ id: data.id, partial: results.slice() });
    }
    self.postMessage({ id: data.id, answer: { results: results } });
    return;
  }
  var t0 = performance.now();
  var result = engine.call(data.request);
  self.postMessage({ id: data.id, answer: result, ms: performance.now() - t0 });
};

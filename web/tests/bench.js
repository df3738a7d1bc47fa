// The wasm half of the wasm-against-native comparison in BENCHMARKS.md: the same requests as
// web/wasm/examples/bench.rs, through the built module (scripts/build-web) in node's V8, the
// engine Chromium uses. Prints the median of REPS runs (default 7) per job.
//
//   scripts/build-web && node web/tests/bench.js 7
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const NQEngine = require("../src/engine.js");

const wasm = path.join(__dirname, "../../target/web/nqueens_web.wasm");
const engine = NQEngine.fromBytes(fs.readFileSync(wasm));
const reps = Number(process.argv[2] || 7);
const jobs = [
  ["count n=12 (backtrack)", { op: "count", n: 12, fix: [] }],
  ["solve n=1000 cp", { op: "solve", n: 1000, fix: [], method: "cp" }],
  ["solve n=1000 construct", { op: "solve", n: 1000, fix: [], method: "construct" }],
];
for (const [name, request] of jobs) {
  const times = [];
  for (let i = 0; i < reps; i++) {
    const start = performance.now();
    const answer = engine.call(request);
    times.push(performance.now() - start);
    if (answer.error) throw new Error(name + ": " + answer.error);
  }
  times.sort((a, b) => a - b);
  console.log(`wasm\t${name}\t${times[Math.floor(times.length / 2)].toFixed(3)} ms`);
}

// The wasm half of the wasm-against-native comparison in BENCHMARKS.md: the same requests as
// web/wasm/examples/bench.rs, through the built module (scripts/build-web), in node's V8 or, with
// --chromium, in Debian's Chromium (headless, the built page opened from disk). Prints the
// median of REPS runs (default 7) per job, after five untimed runs.
//
//   scripts/build-web && node web/tests/bench.js 7 && node web/tests/bench.js 7 --chromium
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const NQEngine = require("../src/engine.js");

const reps = Number(process.argv[2] || 7);
const jobs = [
  ["count n=12 (backtrack)", { op: "count", n: 12, fix: [] }],
  ["solve n=1000 cp", { op: "solve", n: 1000, fix: [], method: "cp" }],
  ["solve n=1000 construct", { op: "solve", n: 1000, fix: [], method: "construct" }],
];

/** The median time of `reps` calls of each job, with `engine` (run where the engine lives). */
function measure(engine, jobs, reps) {
  const out = [];
  for (const [name, request] of jobs) {
    // Warm-up, untimed: V8 compiles wasm functions with its baseline compiler first and
    // tiers hot ones up to the optimising one as they run (Chromium does this lazily).
    for (let i = 0; i < 5; i++) engine.call(request);
    const times = [];
    for (let i = 0; i < reps; i++) {
      const start = performance.now();
      const answer = engine.call(request);
      times.push(performance.now() - start);
      if (answer.error) throw new Error(name + ": " + answer.error);
    }
    times.sort((a, b) => a - b);
    out.push([name, times[Math.floor(times.length / 2)]]);
  }
  return out;
}

async function main() {
  const built = path.join(__dirname, "../../target/web");
  let results;
  let where = "wasm";
  if (process.argv.includes("--chromium")) {
    const { chromium } = require("playwright-core");
    const browser = await chromium.launch({
      executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu"],
    });
    const page = await browser.newPage();
    await page.goto("file://" + path.join(built, "index.html"));
    await page.waitForSelector("html[data-ready]");
    results = await page.evaluate(
      ([source, jobs, reps]) => {
        const measure = eval("(" + source + ")");
        const engine = NQEngine.fromBytes(NQEngine.decodeBase64(NQ_WASM_BASE64));
        return measure(engine, jobs, reps);
      },
      [measure.toString(), jobs, reps],
    );
    await browser.close();
    where = "chromium";
  } else {
    const engine = NQEngine.fromBytes(fs.readFileSync(path.join(built, "nqueens_web.wasm")));
    results = measure(engine, jobs, reps);
  }
  for (const [name, ms] of results) console.log(`${where}\t${name}\t${ms.toFixed(3)} ms`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});

// Browser tests of the web playground, in Debian's Chromium (headless) driven by playwright-core,
// with node's built-in test runner. scripts/test-web.sh builds the page, serves it and sets:
//   NQ_BASE_URL     where the page is served (http://127.0.0.1:PORT/)
//   NQ_PAGE_DIR     the built folder (for the file:// test)
//   NQ_CLI          the nqueens binary (the answers the page must agree with)
//   NQ_SCREENSHOTS  where to write the screenshots
//   CHROMIUM        the browser (default /usr/bin/chromium)
"use strict";
const { test, before, after } = require("node:test");
const assert = require("node:assert/strict");
const { execFileSync, spawnSync } = require("node:child_process");
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const { chromium } = require("playwright-core");

const BASE = process.env.NQ_BASE_URL;
const CLI = process.env.NQ_CLI;
if (!BASE || !CLI) throw new Error("run these tests through scripts/test-web.sh (NQ_BASE_URL and NQ_CLI are not set)");
const SHOTS = process.env.NQ_SCREENSHOTS || path.join(os.tmpdir(), "nqueens-web-screenshots");
const METHODS = ["auto", "backtrack", "dlx", "dlx-gadgets", "sat", "cp", "construct", "local"];

let browser;
// One browser context for every page: a context of its own per page (what browser.newPage
// makes) cost a third of this file's run, and the page keeps nothing in storage that one page
// could leave to the next (no cookies, localStorage, IndexedDB or service worker).
let context;
before(async () => {
  // playwright starts the browser with a fresh temporary profile (--user-data-dir) of its own.
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: [
      "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync",
    ],
  });
  context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
});
after(async () => {
  if (browser) await browser.close();
});

/** A fresh page at `hash`, ready (the script ran, and the board it loaded is solved or says
 * why not), with page errors collected. */
async function open(hash, viewport) {
  const page = await context.newPage();
  await page.setViewportSize(viewport || { width: 1280, height: 900 });
  page.errors = [];
  page.on("pageerror", (e) => page.errors.push(String(e)));
  await page.goto(BASE + "index.html" + hash);
  await page.waitForSelector("html[data-ready]");
  await page.waitForSelector("#status[data-done]");
  return page;
}

/** The queens on the board, from their data-queen attributes: [[row, col]], 1-based, sorted. */
async function queens(page) {
  const squares = await page.$$eval("#board [data-queen]", (els) => els.map((e) => e.getAttribute("data-queen")));
  return squares.map((s) => s.split(":").map(Number)).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
}

/** The fixed queens (the user's, drawn apart from a solution's): [[row, col]], 1-based, sorted. */
async function fixedQueens(page) {
  const squares = await page.$$eval("#board .queen.fixed[data-queen]", (els) => els.map((e) => e.getAttribute("data-queen")));
  return squares.map((s) => s.split(":").map(Number)).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
}

/** The blocked squares on the board, from their cells' class: [[row, col]], 1-based, sorted. */
async function blockedSquares(page, board = "#board") {
  const squares = await page.$$eval(`${board} [data-square].blocked`, (els) => els.map((e) => e.getAttribute("data-square")));
  return squares.map((s) => s.split(":").map(Number)).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
}

/** Whether `qs` is a solution of the n×n board: n queens, no two attacking, none on `block`. */
function assertSolution(qs, n, block = []) {
  assert.equal(qs.length, n, "one queen per row");
  for (let i = 0; i < qs.length; i++) {
    for (let j = i + 1; j < qs.length; j++) {
      const [a, b] = [qs[i], qs[j]];
      const attack = a[0] === b[0] || a[1] === b[1] || a[0] - a[1] === b[0] - b[1] || a[0] + a[1] === b[0] + b[1];
      assert.ok(!attack, `queens ${a.join(":")} and ${b.join(":")} attack each other`);
    }
  }
  for (const b of block) {
    assert.ok(!qs.some((q) => q[0] === b[0] && q[1] === b[1]), `a queen stands on the blocked square ${b.join(":")}`);
  }
  // The CLI's independent checker agrees.
  const args = ["verify", "-n", String(n)];
  for (const b of block) args.push("--block", b.join(":"));
  execFileSync(CLI, [...args, "-"], { input: qs.map((q) => q.join(":")).join(" ") + "\n" });
}

async function solveWith(page, method) {
  await page.selectOption("#method", method);
  await page.click("#solve");
  await page.waitForSelector("#status[data-done]");
  return (await page.textContent("#status")).trim();
}

async function liveCount(page) {
  const handle = await page.waitForSelector("#count[data-count]");
  return Number(await handle.getAttribute("data-count"));
}

function cliCount(n, fix, block = []) {
  const args = ["count", String(n)];
  for (const q of fix) args.push("--fix", q.join(":"));
  for (const b of block) args.push("--block", b.join(":"));
  return Number(execFileSync(CLI, args).toString().trim());
}

test("every method completes #n=8&fix=1:1 and keeps the fixed queen (construct says why it cannot)", async () => {
  const page = await open("#n=8&fix=1:1");
  assert.deepEqual(await fixedQueens(page), [[1, 1]]);
  for (const method of METHODS) {
    const status = await solveWith(page, method);
    if (method === "construct") {
      assert.match(status, /cannot keep fixed queens/);
      assert.ok(await page.isVisible("#message"));
      continue;
    }
    const qs = await queens(page);
    assertSolution(qs, 8);
    assert.ok(qs.some((q) => q[0] === 1 && q[1] === 1), `${method} moved the fixed queen: ${JSON.stringify(qs)}`);
    assert.match(status, new RegExp("^" + method + ": solution 1"));
  }
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("next solution walks through distinct solutions", async () => {
  const page = await open("#n=6&method=dlx");
  const seen = new Set();
  await solveWith(page, "dlx");
  for (let i = 0; i < 4; i++) {
    const qs = await queens(page);
    assertSolution(qs, 6);
    seen.add(JSON.stringify(qs));
    await page.click("#next");
    await page.waitForSelector("#status[data-done]");
  }
  assert.equal(seen.size, 4, "n = 6 has four solutions");
  assert.match(await page.textContent("#status"), /only 4 solutions/);
  await page.close();
});

test("clicking squares updates the live count, which matches nqueens count --fix", async () => {
  const page = await open("#n=8");
  assert.equal(await liveCount(page), 92);
  const fix = [];
  for (const q of [[1, 1], [2, 5], [3, 8]]) {
    await page.click(`[data-square="${q[0]}:${q[1]}"]`);
    fix.push(q);
    assert.equal(await liveCount(page), cliCount(8, fix), `after ${JSON.stringify(fix)}`);
  }
  // Attacked squares are shaded; a queen placed on one is marked as a conflict.
  assert.ok(await page.$eval('[data-square="2:2"]', (e) => e.classList.contains("attacked")));
  await page.click('[data-square="4:4"]');
  assert.equal(await page.$$eval(".queen.conflict", (els) => els.length) >= 2, true);
  assert.equal(await liveCount(page), 0);
  // Removing it restores the count.
  await page.click('[data-square="4:4"]');
  assert.equal(await liveCount(page), cliCount(8, fix));
  // Twelve-row boards too.
  await page.goto(BASE + "index.html#n=12&fix=1:3,2:7");
  await page.waitForSelector("html[data-ready]");
  assert.equal(await liveCount(page), cliCount(12, [[1, 3], [2, 7]]));
  await page.close();
});

test("n = 14 is counted in a worker while the page keeps answering", async () => {
  const page = await open("#n=14");
  // The main thread is free: clicking a square during the count works at once (and restarts it).
  const start = Date.now();
  await page.click('[data-square="1:1"]');
  assert.deepEqual(await queens(page), [[1, 1]]);
  assert.ok(Date.now() - start < 2000, "the click waited for the count");
  assert.equal(await liveCount(page), cliCount(14, [[1, 1]]));
  await page.close();
});

test("the keyboard moves over the board and places queens", async () => {
  const page = await open("#n=5");
  await page.focus('[data-square="1:1"]');
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Enter");
  assert.deepEqual(await queens(page), [[2, 2]]);
  assert.equal(await page.evaluate(() => document.activeElement.getAttribute("data-square")), "2:2");
  await page.keyboard.press(" ");
  assert.deepEqual(await queens(page), []);
  await page.close();
});

test("the state lives in the URL and survives a reload", async () => {
  const page = await open("#n=7");
  await page.click('[data-square="1:2"]');
  await page.click('[data-square="3:1"]');
  await page.selectOption("#method", "cp");
  await page.fill("#seed", "5");
  await page.dispatchEvent("#seed", "change");
  const hash = await page.evaluate(() => location.hash);
  assert.equal(hash, "#n=7&fix=1:2,3:1&method=cp&seed=5");
  const again = await open(hash);
  assert.deepEqual(await fixedQueens(again), [[1, 2], [3, 1]]);
  assert.equal(await again.inputValue("#method"), "cp");
  assert.equal(await again.inputValue("#seed"), "5");
  await again.close();
  await page.close();
});

test("invalid URL states show a message, not a blank page", async () => {
  for (const [hash, expected] of [
    ["#n=0", /at least 1/],
    ["#n=0&fix=9:9", /board size n must be at least 1/],
    ["#n=8&fix=1:1,2:2", /1:1 and 2:2 are on the same diagonal/],
    ["#n=8&fix=9:1", /off the 8×8 board/],
    ["#n=eight", /whole number/],
    ["#n=8&method=magic", /unknown method 'magic'/],
    ["#n=8&block=2-2", /a blocked square is ROW:COL \(1-based\), not '2-2'/],
    ["#n=8&block=1:9", /blocked square 1:9 is off the 8×8 board/],
  ]) {
    const page = await open(hash);
    assert.ok(await page.isVisible("#message"), hash);
    assert.match(await page.textContent("#message"), expected, hash);
    assert.ok(await page.isVisible("#solve"), `${hash}: the controls are there`);
    if (hash.includes("magic") || hash.includes("2:2")) {
      assert.ok(await page.isVisible("#board"), `${hash}: the board is still drawn`);
    }
    assert.deepEqual(page.errors, [], hash);
    await page.close();
  }
});

test("squares are blocked with the tool, shift-click and X, drawn crossed, and kept in the URL", async () => {
  const page = await open("#n=8");
  assert.ok(await page.isDisabled("#clear-blocks"), "nothing to clear yet");
  // The block tool: a click blocks, a second click unblocks.
  await page.check('input[name="tool"][value="block"]');
  await page.click('[data-square="2:3"]');
  await page.click('[data-square="4:4"]');
  await page.click('[data-square="4:4"]');
  assert.deepEqual(await blockedSquares(page), [[2, 3]]);
  assert.deepEqual(await queens(page), [], "the block tool places no queen");
  // Back to queens; shift-click and X block whatever the tool.
  await page.check('input[name="tool"][value="queen"]');
  await page.click('[data-square="1:1"]');
  await page.click('[data-square="5:6"]', { modifiers: ["Shift"] });
  await page.focus('[data-square="7:2"]');
  await page.keyboard.press("x");
  assert.deepEqual(await queens(page), [[1, 1]]);
  const block = [[2, 3], [5, 6], [7, 2]];
  assert.deepEqual(await blockedSquares(page), block);
  // Drawn as a cross on a dark square, told to screen readers, apart from the attacked tint.
  const look = await page.$eval('[data-square="2:3"]', (e) => ({
    label: e.getAttribute("aria-label"),
    cross: getComputedStyle(e, "::before").content,
    tint: getComputedStyle(e).backgroundImage,
  }));
  assert.match(look.label, /row 2, column 3, blocked/);
  assert.equal(look.cross, '""', "the cross's bars are drawn");
  const attackedTint = await page.$eval('[data-square="2:2"]', (e) => getComputedStyle(e).backgroundImage);
  assert.notEqual(look.tint, attackedTint, "a blocked square looks unlike an attacked one");
  assert.equal(await liveCount(page), cliCount(8, [[1, 1]], block));

  const hash = await page.evaluate(() => location.hash);
  assert.equal(hash, "#n=8&fix=1:1&block=2:3,5:6,7:2&method=auto&seed=0");
  const again = await open(hash);
  assert.deepEqual(await blockedSquares(again), block);
  assert.deepEqual(await fixedQueens(again), [[1, 1]]);
  assert.equal(await liveCount(again), cliCount(8, [[1, 1]], block));
  // Clear blocks takes them all off, queens stay, and the address forgets them.
  await again.click("#clear-blocks");
  assert.deepEqual(await blockedSquares(again), []);
  assert.deepEqual(await queens(again), [[1, 1]]);
  assert.equal(await again.evaluate(() => location.hash), "#n=8&fix=1:1&method=auto&seed=0");
  assert.equal(await liveCount(again), cliCount(8, [[1, 1]]));
  assert.deepEqual(page.errors, []);
  assert.deepEqual(again.errors, []);
  await again.close();
  await page.close();
});

test("blocked squares: the page counts, solves, lists, races and exports as nqueens --block does", async () => {
  const block = [[1, 1], [3, 6], [5, 5], [8, 2]];
  const page = await open("#n=8&block=1:1,3:6,5:5,8:2");
  const expected = cliCount(8, [], block);
  assert.ok(expected > 0 && expected < 92, `the blocks change the count (${expected})`);
  assert.equal(await liveCount(page), expected);
  // A method refuses the blocks on the page exactly when it does in the CLI, with the
  // library's reason (the CLI adds the --method values that can).
  const refusing = [];
  for (const method of METHODS) {
    const cli = spawnSync(CLI, ["solve", "8", "-m", method, "-f", "coords", ...block.flatMap((b) => ["--block", b.join(":")])]);
    const before = await queens(page);
    const status = await solveWith(page, method);
    if (cli.status !== 0) {
      assert.match(cli.stderr.toString(), /does not take blocked squares/, method);
      assert.ok(cli.stderr.toString().startsWith(`error: ${status} (`), `${method}: the page says '${status}', the CLI ${cli.stderr}`);
      assert.equal(await page.textContent("#message"), status);
      assert.deepEqual(await queens(page), before, `${method}: the board is as it was, no solution ignoring the blocks`);
      refusing.push(method);
      continue;
    }
    assert.match(status, new RegExp("^" + method + ": solution 1"));
    assertSolution(await queens(page), 8, block);
    assert.deepEqual(await blockedSquares(page), block, "the blocks stay drawn under a solution");
  }
  assert.ok(refusing.includes("construct"), "the construction knows nothing of blocked squares");
  // The --fix-file export carries the blocks: the CLI counts the same board from it (the
  // solution shown is cleared first, or its queens would be exported as fixed).
  await page.click("#clear");
  await page.click("#export-fix");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "nqueens-web-"));
  const file = path.join(dir, "blocked.txt");
  fs.writeFileSync(file, await page.inputValue("#export-text"));
  assert.equal(Number(execFileSync(CLI, ["count", "--fix-file", file]).toString().trim()), expected);
  fs.rmSync(dir, { recursive: true, force: true });
  // The race: the same refusals, every other method solves.
  await page.click("#race");
  await page.waitForSelector("#race-table[data-done]");
  const rows = await page.$$eval("#race-table tbody tr", (trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent)));
  assert.deepEqual(rows.map((r) => r[0]), METHODS);
  for (const r of rows) {
    if (refusing.includes(r[0])) assert.match(r[1], /does not take blocked squares/, r.join(" | "));
    else assert.equal(r[1], "solved", r.join(" | "));
  }
  assert.deepEqual(page.errors, []);
  await page.close();

  // n = 6 with 1:2 blocked: next solution walks the CLI's list, then says there are no more.
  const six = await open("#n=6&block=1:2&method=dlx");
  // coords lines mark the blocked squares after the queens (!ROW:COL): the queens are the rest.
  const listed = execFileSync(CLI, ["list", "6", "--block", "1:2", "-f", "coords"]).toString().trim().split("\n")
    .map((line) => line.split(" ").filter((t) => !t.startsWith("!")).join(" "));
  assert.equal(listed.length, cliCount(6, [], [[1, 2]]));
  assert.equal(await liveCount(six), listed.length);
  const seen = new Set();
  await solveWith(six, "dlx");
  for (let i = 0; i < listed.length; i++) {
    const qs = await queens(six);
    assertSolution(qs, 6, [[1, 2]]);
    seen.add(qs.map((q) => q.join(":")).join(" "));
    await six.click("#next");
    await six.waitForSelector("#status[data-done]");
  }
  assert.deepEqual([...seen].sort(), listed.sort());
  assert.match(await six.textContent("#status"), new RegExp(`only ${listed.length} solutions`));
  await six.close();
});

test("a replay keeps off the blocked squares: its nodes and solutions are the CLI's", async () => {
  const block = [[1, 1], [3, 6]];
  const page = await open("#n=8&block=1:1,3:6&seed=5");
  await page.selectOption("#replay-method", "backtrack");
  await page.check("#replay-all");
  await page.click("#replay-load");
  await page.waitForSelector('#replay-status[data-step="0"]');
  assert.equal(await page.$$eval("#replay-board .sq.blocked", (els) => els.length), 2, "the replay board shows the blocks");
  await page.click("#replay-end");
  await page.waitForSelector("#replay-status[data-finished]");
  const run = spawnSync(CLI, ["list", "8", "-m", "backtrack", "--block", "1:1", "--block", "3:6", "--stats", "-f", "coords"]);
  assert.equal(run.status, 0, run.stderr.toString());
  const nodes = Number(/nodes=(\d+)/.exec(run.stderr.toString())[1]);
  const solutions = run.stdout.toString().trim().split("\n").length;
  assert.equal(solutions, cliCount(8, [], block));
  assert.equal(Number(await page.getAttribute("#replay-status", "data-nodes")), nodes);
  assert.match(await page.textContent("#replay-status"), new RegExp(`solutions ${solutions} · finished$`));
  await page.close();
});

test("a queen on a blocked square shows the library's error and keeps the board", async () => {
  const page = await open("#n=8&block=3:3");
  assert.equal(await page.isVisible("#message"), false);
  await page.click('[data-square="3:3"]');
  assert.ok(await page.isVisible("#message"));
  assert.equal(await page.textContent("#message"), "fixed queen 3:3 stands on a blocked square");
  // Still drawn, the queen ringed as a conflict on its crossed square, so one click undoes it.
  assert.deepEqual(await queens(page), [[3, 3]]);
  assert.deepEqual(await blockedSquares(page), [[3, 3]]);
  assert.ok(await page.$eval('[data-queen="3:3"]', (e) => e.classList.contains("conflict")));
  // Solve refuses the board with the same message.
  await page.click("#solve");
  assert.equal(await page.textContent("#message"), "fixed queen 3:3 stands on a blocked square");
  assert.deepEqual(await queens(page), [[3, 3]], "no solution was drawn");
  await page.click('[data-square="3:3"]');
  assert.equal(await page.isVisible("#message"), false);
  assert.equal(await liveCount(page), cliCount(8, [], [[3, 3]]));
  // The same board from the address, and blocking a square under a queen: the same error.
  const linked = await open("#n=8&fix=2:5&block=2:5");
  assert.match(await linked.textContent("#message"), /fixed queen 2:5 stands on a blocked square/);
  assert.ok(await linked.isVisible("#board"));
  await linked.click('[data-square="2:5"]', { modifiers: ["Shift"] });
  assert.equal(await linked.isVisible("#message"), false, "unblocking it clears the error");
  await linked.focus('[data-square="2:5"]');
  await linked.keyboard.press("X");
  assert.equal(await linked.textContent("#message"), "fixed queen 2:5 stands on a blocked square");
  assert.deepEqual(page.errors, []);
  assert.deepEqual(linked.errors, []);
  await linked.close();
  await page.close();
});

test("a link with a bad square keeps the rest, says what it left out, and is solved on load", async () => {
  // One square off the board, and a queen on a blocked square: the valid block is drawn, both
  // are told, the count says why it is 0, and the board says why it is not solved.
  const page = await open("#n=8&block=9:9,3:3&fix=3:3");
  assert.deepEqual(await blockedSquares(page), [[3, 3]]);
  assert.deepEqual(await fixedQueens(page), [[3, 3]]);
  const message = await page.textContent("#message");
  assert.match(message, /blocked square 9:9 is off the 8×8 board \(rows and columns run from 1 to 8\), left out/);
  assert.match(message, /fixed queen 3:3 stands on a blocked square/);
  assert.equal(await liveCount(page), 0);
  assert.match(await page.textContent("#count"), /a queen stands on a blocked square/);
  assert.match(await page.textContent("#status"), /^not solved: fixed queen 3:3 stands on a blocked square/);
  assert.deepEqual(page.errors, []);
  await page.close();
  // Without the queen the rest is solved at once, the warning kept beside the solution.
  const solved = await open("#n=8&block=9:9,3:3&fix=1:1,0:4");
  assert.deepEqual(await blockedSquares(solved), [[3, 3]]);
  assert.deepEqual(await fixedQueens(solved), [[1, 1]]);
  assert.match(await solved.textContent("#status"), /^auto: solution 1/);
  assertSolution(await queens(solved), 8, [[3, 3]]);
  const warned = await solved.textContent("#message");
  assert.match(warned, /blocked square 9:9 is off/);
  assert.match(warned, /fixed queen 0:4 is off/);
  assert.equal(await liveCount(solved), cliCount(8, [[1, 1]], [[3, 3]]));
  await solved.close();
});

test("method= in the link sets the replay's method too, and the board fits above the fold", async () => {
  for (const [method, replay] of [["dlx", "dlx"], ["cp", "cp"], ["sat", "sat"], ["auto", "backtrack"], ["local", "backtrack"]]) {
    const page = await open(`#n=8&fix=2:3&method=${method}`);
    assert.equal(await page.inputValue("#replay-method"), replay, method);
    await page.close();
  }
  const page = await open("#n=8");
  await page.selectOption("#method", "cp");
  assert.equal(await page.inputValue("#replay-method"), "cp", "the picker leads the replay too");
  await page.close();
  // At 1280×900 the whole board is on the screen without scrolling, a message above or not.
  for (const hash of ["#n=8", "#n=12&fix=1:1&block=2:2&method=dlx", "#n=8&block=9:9,3:3&fix=3:3"]) {
    const shown = await open(hash, { width: 1280, height: 900 });
    const box = await shown.$eval("#board", (e) => { const r = e.getBoundingClientRect(); return { top: r.top, bottom: r.bottom, right: r.right }; });
    assert.ok(box.bottom <= 900 && box.right <= 1280, `${hash}: the board ends at ${JSON.stringify(box)}`);
    assert.ok(box.bottom - box.top >= 320, `${hash}: the board is ${box.bottom - box.top}px tall`);
    assert.equal(await shown.evaluate(() => window.scrollY), 0);
    await shown.close();
  }
});

test("the board text opens any board the CLI writes, blocked squares and all", async () => {
  const page = await open("#n=5");
  for (const format of ["unicode", "ascii", "json", "coords"]) {
    const text = execFileSync(CLI, ["solve", "8", "--block", "1:1", "--block", "4:4", "-f", format]).toString();
    const cli = execFileSync(CLI, ["solve", "8", "--block", "1:1", "--block", "4:4", "-f", "coords"]).toString().trim()
      .split(" ").filter((t) => !t.startsWith("!")).map((q) => q.split(":").map(Number)).sort((a, b) => a[0] - b[0]);
    await page.fill("#export-text", text);
    await page.click("#open-text");
    await page.waitForSelector("#status[data-done]");
    assert.equal(await page.inputValue("#size"), "8", format);
    assert.deepEqual(await blockedSquares(page), [[1, 1], [4, 4]], format);
    assert.deepEqual(await fixedQueens(page), cli, `${format}: every queen of the text is kept`);
  }
  await page.fill("#export-text", "2 4 ♕ 3");
  await page.click("#open-text");
  assert.match(await page.textContent("#message"), /line 1, column 5: unexpected '♕'/);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("the picker offers every method, auto first and by default, and auto solves n = 200", async () => {
  const page = await open("#n=200");
  assert.deepEqual(await page.$$eval("#method option", (os) => os.map((o) => o.value)), METHODS);
  assert.equal(await page.inputValue("#method"), "auto");
  await page.click("#solve");
  await page.waitForFunction(() => /solution 1/.test(document.querySelector("#status").textContent));
  assert.doesNotMatch(await page.textContent("#status"), /handles n up to/);
  assert.deepEqual(page.errors, []);
  await page.close();
});

test("n = 64 is solved with dlx", async () => {
  const page = await open("#n=64&method=dlx");
  const status = await solveWith(page, "dlx");
  assert.match(status, /^dlx: solution 1/);
  assertSolution(await queens(page), 64);
  await page.close();
});

test("large boards are drawn as a permutation plot of the construction", async () => {
  const page = await open("#n=100000&method=construct");
  await solveWith(page, "construct");
  assert.equal(await page.getAttribute("#plot", "data-n"), "100000");
  assert.ok(await page.isVisible("#plot"));
  assert.equal(await page.isVisible("#board"), false);
  await page.close();
});

test("exports: the --fix-file text reads back with the CLI, the SVG is a picture of the board", async () => {
  const page = await open("#n=8&fix=1:1");
  // The board as linked, before a solution is shown: the load's solution is cleared by taking
  // the queen off and putting it back.
  await page.click('[data-square="1:1"]');
  await page.click('[data-square="1:1"]');
  assert.deepEqual(await queens(page), [[1, 1]]);
  await page.click("#export-fix");
  let text = await page.inputValue("#export-text");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "nqueens-web-"));
  const file = path.join(dir, "board.txt");
  fs.writeFileSync(file, text);
  assert.equal(Number(execFileSync(CLI, ["count", "--fix-file", file]).toString().trim()), cliCount(8, [[1, 1]]));
  await solveWith(page, "sat");
  const qs = await queens(page);
  await page.click("#export-fix");
  text = await page.inputValue("#export-text");
  fs.writeFileSync(file, text);
  const solved = execFileSync(CLI, ["solve", "--fix-file", file, "-f", "coords"]).toString().trim();
  assert.equal(solved, qs.map((q) => q.join(":")).join(" "), "the exported board is its own only completion");
  await page.click("#export-svg");
  const svg = await page.inputValue("#export-text");
  assert.match(svg, /^<svg/);
  assert.equal((svg.match(/<circle|<use|<text/g) || []).length >= 8, true, "eight queens drawn");
  fs.rmSync(dir, { recursive: true, force: true });
  await page.close();
});

test("the race runs every method and draws a table and a bar chart", async () => {
  const page = await open("#n=10&fix=2:3");
  await page.click("#race");
  await page.waitForSelector("#race-table[data-done]");
  const rows = await page.$$eval("#race-table tbody tr", (trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent)));
  assert.deepEqual(rows.map((r) => r[0]), METHODS);
  for (const r of rows) {
    if (r[0] === "construct") assert.match(r[1], /cannot keep fixed queens/);
    else {
      assert.equal(r[1], "solved", r.join(" | "));
      assert.ok(Number(r[2]) >= 0);
    }
  }
  assert.equal(await page.$$eval("#race-chart .bar", (bars) => bars.length), METHODS.length);
  await page.close();
});

test("the gallery groups the 92 solutions of n = 8 into 12 symmetry classes", async () => {
  const page = await open("#n=8");
  await page.click("#gallery");
  await page.waitForFunction(() => /classes/.test(document.querySelector("#gallery-status").textContent));
  assert.equal(await page.textContent("#gallery-status"), "92 solutions in 12 symmetry classes");
  assert.equal(await page.$$eval("#gallery-list figure", (f) => f.length), 12);
  await page.$$eval("#gallery-list details", (all) => all.forEach((d) => { d.open = true; }));
  await page.waitForFunction(() => document.querySelectorAll("#gallery-list details[data-drawn]").length === 12);
  const members = await page.$$eval("#gallery-list details .pick", (p) => p.length);
  assert.equal(members, 92);
  await page.click("#gallery-list figure .pick");
  assertSolution(await queens(page), 8);
  await page.close();
});

test("a dancing-links search of n = 4 replays to its end; backtracking and CP step", async () => {
  const page = await open("#n=4");
  await page.selectOption("#replay-method", "dlx");
  await page.check("#replay-all");
  await page.click("#replay-step");
  await page.waitForSelector('#replay-status[data-step="1"]');
  assert.match(await page.textContent("#replay-items"), /covered items: [rc]\d/);
  await page.click("#replay-end");
  await page.waitForSelector("#replay-status[data-finished]");
  const status = await page.textContent("#replay-status");
  assert.match(status, /solutions 2 · finished$/);
  const total = await page.getAttribute("#replay-status", "data-total");
  assert.equal(await page.getAttribute("#replay-status", "data-step"), total);
  // Everything covered was uncovered again.
  assert.equal(await page.textContent("#replay-items"), "");

  for (const method of ["backtrack", "cp"]) {
    await page.selectOption("#replay-method", method);
    await page.uncheck("#replay-all");
    await page.click("#replay-load");
    await page.waitForSelector('#replay-status[data-step="0"]');
    await page.fill("#replay-speed", "200");
    await page.click("#replay-play");
    await page.waitForSelector("#replay-status[data-finished]", { timeout: 20000 });
    assert.match(await page.textContent("#replay-status"), /solutions 1 · finished/);
    const qs = await page.$$eval("#replay-board [data-replay-queen]", (els) => els.map((e) => e.getAttribute("data-replay-queen").split(":").map(Number)));
    assertSolution(qs, 4);
  }
  await page.close();
});

test("the replay is the engine's own search: its nodes are the CLI's --stats nodes on n = 8", async () => {
  const page = await open("#n=8&seed=5");
  for (const method of ["backtrack", "dlx", "cp", "sat"]) {
    for (const all of [false, true]) {
      await page.selectOption("#replay-method", method);
      if (all) await page.check("#replay-all"); else await page.uncheck("#replay-all");
      await page.click("#replay-load");
      await page.waitForSelector('#replay-status[data-step="0"]');
      await page.click("#replay-end");
      await page.waitForSelector("#replay-status[data-finished]");
      const shown = Number(await page.getAttribute("#replay-status", "data-nodes"));
      const job = all ? "list" : "solve";
      const run = spawnSync(CLI, [job, "8", "-m", method, "--seed", "5", "--stats", "-f", "coords"]);
      assert.equal(run.status, 0, run.stderr.toString());
      // SAT's nodes are its decisions.
      const counter = method === "sat" ? /decisions=(\d+)/ : /nodes=(\d+)/;
      const cli = Number(counter.exec(run.stderr.toString())[1]);
      assert.equal(shown, cli, `${method} ${job}: the replay counted ${shown} nodes, the CLI ${cli}`);
      assert.equal(Number(await page.getAttribute("#replay-status", "data-engine-nodes")), cli);
      assert.match(await page.textContent("#replay-status"), all ? /solutions 92 · (.* · )?finished$/ : /solutions 1 · (.* · )?finished$/);
      if (!all) {
        // The board ends at the solution the CLI finds with the same seed.
        const qs = await page.$$eval("#replay-board [data-replay-queen]", (els) => els.map((e) => e.getAttribute("data-replay-queen")));
        const solved = execFileSync(CLI, ["solve", "8", "-m", method, "--seed", "5", "-f", "coords"]).toString().trim().split(" ");
        assert.deepEqual(qs.sort(), solved.sort(), method);
      }
    }
  }
  await page.close();
});

test("the page works opened from disk (file://)", async () => {
  const dir = process.env.NQ_PAGE_DIR;
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto("file://" + path.resolve(dir, "index.html") + "#n=6&fix=1:2");
  await page.waitForSelector("html[data-ready]");
  assert.equal(await liveCount(page), 1);
  await solveWith(page, "cp");
  assertSolution(await queens(page), 6);
  assert.deepEqual(errors, []);
  await page.close();
});

test("screenshots at desktop and phone widths", async () => {
  fs.mkdirSync(SHOTS, { recursive: true });
  for (const [name, viewport] of [["desktop", { width: 1280, height: 1100 }], ["phone", { width: 390, height: 844 }]]) {
    const page = await open("#n=8&fix=1:1,2:5&block=5:2,7:7&method=dlx&seed=3", viewport);
    await solveWith(page, "dlx");
    await page.click("#race");
    await page.waitForSelector("#race-table[data-done]");
    // Nothing is wider than the screen.
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `${name}: the page is ${overflow}px wider than the screen`);
    await page.screenshot({ path: path.join(SHOTS, name + ".png"), fullPage: name === "phone" });
    await page.close();
  }
});

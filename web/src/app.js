// The playground page: the board, solve/next, live count, race, replay, gallery, exports and
// the URL state. Plain browser JavaScript (no modules, so the page also works from file://).
// The engines run in WebAssembly (web/wasm): quick requests on this thread, searches and
// counts in Web Workers started from Blob URLs.
/* global NQEngine, NQ_WASM_BASE64, NQ_WORKER_SOURCE */
(function () {
  "use strict";

  var MAX_BOARD = 64; // interactive boards; larger ones are drawn as a permutation plot
  var MAX_N = 100000;
  var MAX_COUNT = 14;
  var REPLAY_METHODS = ["backtrack", "dlx", "cp", "sat"]; // the replay's picker

  var $ = function (id) { return document.getElementById(id); };
  // Compiled once; the workers get the compiled module, so restarting one is cheap.
  var wasmModule = new WebAssembly.Module(NQEngine.decodeBase64(NQ_WASM_BASE64));
  var engine = NQEngine.fromModule(wasmModule);
  // The library's list, `auto` (the default) first: the picker is built from it.
  var METHODS = engine.call({ op: "methods" }).methods;
  METHODS.forEach(function (name) {
    var option = document.createElement("option");
    option.value = name;
    option.textContent = name;
    $("method").appendChild(option);
  });

  // ---- state -------------------------------------------------------------------------------
  var state = {
    n: 8,
    fix: [], // [[row, col]] 1-based, the queens the user placed (fixed for the engines)
    block: [], // [[row, col]] 1-based, the squares no queen may take (blocked n-Queens)
    tool: "queen", // what a plain click on the board does: "queen" or "block"
    method: "auto",
    seed: 0,
    solution: null, // 1-based columns of the shown solution (null: none)
    index: 0, // which solution of the method is shown (next solution)
    valid: true,
    version: 0, // counts the board's changes, so a solve that ends after one is dropped
  };

  function showMessage(text) {
    var box = $("message");
    box.textContent = text || "";
    box.hidden = !text;
    fitBoard();
  }
  // On a wide screen, the board is no taller than the window below its top (a message above
  // moves it down), so that it is seen whole without scrolling; at least 320 px.
  var WIDE = 900;
  function fitBoard() {
    var wrap = $("board-wrap");
    if (window.innerWidth < WIDE) { wrap.style.maxWidth = ""; return; }
    var top = wrap.getBoundingClientRect().top + window.scrollY;
    wrap.style.maxWidth = Math.max(320, Math.floor(window.innerHeight - top - 12)) + "px";
  }
  window.addEventListener("resize", fitBoard);
  function setStatus(text) { $("status").textContent = text; }

  // ---- URL state: #n=8&fix=1:1,2:5&block=3:3&method=dlx&seed=3 -----------------------------
  // A list of squares as the address and the CLI write it: 1:1,2:5.
  function squaresText(squares) {
    return squares.map(function (q) { return q[0] + ":" + q[1]; }).join(",");
  }
  function parseSquares(value, what, out) {
    var squares = [];
    value.split(",").forEach(function (square) {
      if (!square) return;
      var m = /^(\d+):(\d+)$/.exec(square);
      if (!m) out.errors.push(what + " is ROW:COL (1-based), not '" + square + "'");
      else squares.push([Number(m[1]), Number(m[2])]);
    });
    return squares;
  }
  function parseHash(hash) {
    var out = { n: 8, fix: [], block: [], method: "auto", seed: 0, errors: [] };
    var text = hash.replace(/^#/, "");
    if (!text) return out;
    text.split("&").forEach(function (part) {
      if (!part) return;
      var eq = part.indexOf("=");
      var key = eq < 0 ? part : part.slice(0, eq);
      var value = eq < 0 ? "" : decodeURIComponent(part.slice(eq + 1));
      if (key === "n") {
        if (!/^\d+$/.test(value)) out.errors.push("n must be a whole number, not '" + value + "'");
        else out.n = Number(value);
      } else if (key === "fix") {
        out.fix = parseSquares(value, "a fixed queen", out);
      } else if (key === "block") {
        out.block = parseSquares(value, "a blocked square", out);
      } else if (key === "method") {
        if (METHODS.indexOf(value) < 0) out.errors.push("unknown method '" + value + "' (the page offers " + METHODS.join(", ") + ")");
        else out.method = value;
      } else if (key === "seed") {
        if (!/^\d+$/.test(value)) out.errors.push("the seed must be a whole number, not '" + value + "'");
        else out.seed = Number(value);
      } else {
        out.errors.push("unknown setting '" + key + "' in the address");
      }
    });
    return out;
  }
  function writeHash() {
    var parts = ["n=" + state.n];
    if (state.fix.length) parts.push("fix=" + squaresText(state.fix));
    if (state.block.length) parts.push("block=" + squaresText(state.block));
    parts.push("method=" + state.method);
    parts.push("seed=" + state.seed);
    var hash = "#" + parts.join("&");
    if (location.hash !== hash) history.replaceState(null, "", hash);
  }
  // The squares of `squares` that lie on the n×n board; each one off it is left out with a
  // warning in `errors`, in the library's words, so that one bad square does not hide the rest.
  function onBoard(squares, n, what, errors) {
    if (n < 1) return squares; // no board to judge them against: the size's error says so
    return squares.filter(function (q) {
      var inside = q[0] >= 1 && q[0] <= n && q[1] >= 1 && q[1] <= n;
      if (!inside) {
        errors.push(what + " " + q[0] + ":" + q[1] + " is off the " + n + "×" + n +
          " board (rows and columns run from 1 to " + n + "), left out");
      }
      return inside;
    });
  }
  // A new board (from the link or a text): no solution shown yet.
  function setBoard(n, fix, block) {
    state.n = n;
    state.fix = fix;
    state.block = block;
    state.solution = null;
    state.index = 0;
    state.version++;
    $("size").value = n;
  }
  // The replay follows the method of the link (or the picker) when it is one the replay offers.
  function followMethod() {
    if (REPLAY_METHODS.indexOf(state.method) >= 0) $("replay-method").value = state.method;
  }
  function loadFromHash() {
    var parsed = parseHash(location.hash);
    setBoard(parsed.n, onBoard(parsed.fix, parsed.n, "fixed queen", parsed.errors),
      onBoard(parsed.block, parsed.n, "blocked square", parsed.errors));
    state.method = parsed.method;
    state.seed = parsed.seed;
    $("method").value = state.method;
    $("seed").value = state.seed;
    followMethod();
    update(parsed.errors);
    // What was linked is solved at once; a board with a conflict says why it is not.
    var errors = check();
    if (errors.length) notSolved(errors);
    else solve(0, parsed.errors);
  }

  // ---- checks ------------------------------------------------------------------------------
  function check(extraErrors) {
    var errors = (extraErrors || []).slice();
    var answer = engine.call({ op: "check", n: state.n, fix: state.fix, block: state.block });
    if (answer.error) errors.push(answer.error);
    return errors;
  }

  // ---- the board ---------------------------------------------------------------------------
  var focus = { r: 1, c: 1 };
  function queensShown() {
    var queens = state.fix.map(function (q) { return { r: q[0], c: q[1], fixed: true }; });
    if (state.solution) {
      state.solution.forEach(function (col, i) {
        var row = i + 1;
        if (!state.fix.some(function (q) { return q[0] === row; })) queens.push({ r: row, c: col, fixed: false });
      });
    }
    return queens;
  }
  function attacks(a, b) {
    return a.r === b.r || a.c === b.c || a.r - a.c === b.r - b.c || a.r + a.c === b.r + b.c;
  }
  function renderBoard() {
    var board = $("board");
    var plot = $("plot");
    var n = state.n;
    if (!state.valid || n < 1) { board.innerHTML = ""; board.hidden = true; plot.hidden = true; return; }
    if (n > MAX_BOARD) {
      board.innerHTML = "";
      board.hidden = true;
      plot.hidden = false;
      drawPlot();
      return;
    }
    plot.hidden = true;
    board.hidden = false;
    board.style.setProperty("--n", n);
    var queens = queensShown();
    var at = {};
    queens.forEach(function (q) { at[q.r + ":" + q.c] = q; });
    var fixedQueens = queens.filter(function (q) { return q.fixed; });
    var blocked = {};
    state.block.forEach(function (b) { blocked[b[0] + ":" + b[1]] = true; });
    var html = [];
    for (var r = 1; r <= n; r++) {
      html.push('<div role="row" class="row">');
      for (var c = 1; c <= n; c++) {
        var key = r + ":" + c;
        var q = at[key];
        var square = { r: r, c: c };
        var attacked = fixedQueens.some(function (f) { return (f.r !== r || f.c !== c) && attacks(f, square); });
        var cls = "sq " + ((r + c) % 2 === 0 ? "light" : "dark") + (attacked ? " attacked" : "") +
          (blocked[key] ? " blocked" : "");
        var label = "row " + r + ", column " + c + (blocked[key] ? ", blocked" : "");
        var inner = "";
        if (q) {
          // A queen on a blocked square is as wrong as two queens that attack each other.
          var conflict = blocked[key] || queens.some(function (o) { return o !== q && attacks(o, q); });
          label += q.fixed ? ", your queen" : ", solution queen";
          if (conflict) label += ", in conflict";
          inner = '<span class="queen ' + (q.fixed ? "fixed" : "solved") + (conflict ? " conflict" : "") +
            '" data-queen="' + key + '" aria-hidden="true">♛</span>';
        } else if (attacked) {
          label += ", attacked";
        }
        var tab = r === focus.r && c === focus.c ? "0" : "-1";
        html.push('<div role="gridcell" class="' + cls + '" data-square="' + key + '" tabindex="' + tab +
          '" aria-label="' + label + '">' + inner + "</div>");
      }
      html.push("</div>");
    }
    board.innerHTML = html.join("");
  }
  function drawPlot() {
    var canvas = $("plot");
    var ctx = canvas.getContext("2d");
    var size = canvas.width;
    ctx.fillStyle = "#fbf7f0";
    ctx.fillRect(0, 0, size, size);
    ctx.strokeStyle = "#b58863";
    ctx.strokeRect(0.5, 0.5, size - 1, size - 1);
    if (!state.solution) {
      ctx.fillStyle = "#333";
      ctx.font = "16px sans-serif";
      ctx.fillText("n = " + state.n + ": press Solve (construct or local) to plot a solution", 12, 30);
      return;
    }
    var n = state.solution.length;
    var scale = size / n;
    var dot = Math.max(1, Math.min(4, scale));
    ctx.fillStyle = "#1a1a1a";
    state.solution.forEach(function (col, i) {
      ctx.fillRect((col - 1) * scale, i * scale, dot, dot);
    });
    canvas.setAttribute("data-n", String(n));
  }
  // Adds the square (r, c) to `squares` (state.fix or state.block), or takes it out if there.
  function toggleSquare(squares, r, c) {
    var i = squares.findIndex(function (q) { return q[0] === r && q[1] === c; });
    if (i >= 0) squares.splice(i, 1);
    else squares.push([r, c]);
  }
  // Places or removes a queen (a queen placed on a row replaces a shown solution's queen there,
  // never another of yours), or with `blocking` blocks or unblocks the square. Either may leave
  // a queen on a blocked square: the check names it, and the user undoes it with one click.
  function toggle(r, c, blocking) {
    toggleSquare(blocking ? state.block : state.fix, r, c);
    state.version++;
    state.solution = null;
    state.index = 0;
    focus = { r: r, c: c };
    update();
    var cell = document.querySelector('[data-square="' + r + ":" + c + '"]');
    if (cell) cell.focus();
  }
  $("board").addEventListener("click", function (event) {
    var cell = event.target.closest("[data-square]");
    if (!cell) return;
    var rc = cell.getAttribute("data-square").split(":").map(Number);
    // Shift-click blocks whatever the tool, so both edits are at hand without the switch.
    toggle(rc[0], rc[1], state.tool === "block" || event.shiftKey);
  });
  $("board").addEventListener("keydown", function (event) {
    var cell = event.target.closest("[data-square]");
    if (!cell) return;
    var rc = cell.getAttribute("data-square").split(":").map(Number);
    var r = rc[0], c = rc[1], n = state.n;
    var moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (moves[event.key]) {
      r = Math.min(n, Math.max(1, r + moves[event.key][0]));
      c = Math.min(n, Math.max(1, c + moves[event.key][1]));
    } else if (event.key === "Home") { c = 1; } else if (event.key === "End") { c = n; } else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      toggle(r, c, state.tool === "block");
      return;
    } else if (event.key === "x" || event.key === "X") {
      event.preventDefault();
      toggle(r, c, true);
      return;
    } else {
      return;
    }
    event.preventDefault();
    cell.setAttribute("tabindex", "-1");
    focus = { r: r, c: c };
    var next = document.querySelector('[data-square="' + r + ":" + c + '"]');
    next.setAttribute("tabindex", "0");
    next.focus();
  });

  // ---- workers -----------------------------------------------------------------------------
  var workerUrl = URL.createObjectURL(new Blob([NQ_WORKER_SOURCE], { type: "text/javascript" }));
  function Worker_() {
    this.next = 1;
    this.pending = {};
    this.start();
  }
  Worker_.prototype.start = function () {
    var self = this;
    this.worker = new Worker(workerUrl);
    this.worker.postMessage({ wasm: wasmModule });
    this.worker.onmessage = function (event) {
      var data = event.data;
      var job = self.pending[data.id];
      if (!job) return;
      if (data.partial) { if (job.partial) job.partial(data.partial); return; }
      delete self.pending[data.id];
      job.done(data.answer, data.ms);
    };
    this.worker.onerror = function (event) {
      var message = "the engine stopped: " + (event.message || "unknown error");
      var pending = self.pending;
      self.pending = {};
      Object.keys(pending).forEach(function (id) { pending[id].done({ error: message }, 0); });
      self.restart();
    };
  };
  Worker_.prototype.restart = function () {
    this.worker.terminate();
    this.pending = {};
    this.start();
  };
  Worker_.prototype.busy = function () { return Object.keys(this.pending).length > 0; };
  Worker_.prototype.run = function (message, done, partial) {
    var id = this.next++;
    message.id = id;
    this.pending[id] = { done: done, partial: partial };
    this.worker.postMessage(message);
    return id;
  };
  var jobs = new Worker_();
  var counter = new Worker_();

  // ---- live count --------------------------------------------------------------------------
  var countId = 0;
  function liveCount() {
    var out = $("count");
    out.removeAttribute("data-count");
    if (!state.valid) { out.textContent = "—"; return; }
    if (state.n > MAX_COUNT) { out.textContent = "counted live for n ≤ " + MAX_COUNT; return; }
    var shown = queensShown();
    var clash = shown.some(function (a) { return shown.some(function (b) { return a !== b && attacks(a, b); }); });
    if (clash) { out.textContent = "0 (queens attack each other)"; out.setAttribute("data-count", "0"); return; }
    var onBlock = state.fix.some(function (q) { return state.block.some(function (b) { return b[0] === q[0] && b[1] === q[1]; }); });
    if (onBlock) { out.textContent = "0 (a queen stands on a blocked square)"; out.setAttribute("data-count", "0"); return; }
    if (counter.busy()) counter.restart();
    out.textContent = "counting…";
    var mine = ++countId;
    counter.run({ request: { op: "count", n: state.n, fix: state.fix, block: state.block } }, function (answer) {
      if (mine !== countId) return;
      if (answer.error) { out.textContent = answer.error; return; }
      out.textContent = String(answer.total);
      out.setAttribute("data-count", String(answer.total));
    });
  }

  // ---- update after any change -------------------------------------------------------------
  function update(extraErrors) {
    // Settings the address got wrong fell back to their defaults: say so, and go on. A board
    // whose queens attack each other or stand on blocked squares is still drawn (conflicts
    // marked); one that cannot be drawn (no size, squares off the board) is not.
    var boardErrors = check();
    var errors = (extraErrors || []).concat(boardErrors);
    state.valid = state.n >= 1 && state.n <= MAX_N && boardErrors.filter(function (e) { return !/same (row|column|diagonal|anti-diagonal)|given twice|stands on a blocked square/.test(e); }).length === 0;
    if (errors.length) showMessage(errors.join("; ")); else showMessage("");
    if (state.valid) writeHash();
    renderBoard();
    liveCount();
    $("gallery").disabled = !(state.valid && state.n <= 12);
    $("clear-blocks").disabled = state.block.length === 0;
  }

  // ---- solve / next ------------------------------------------------------------------------
  // Says why the board is not solved (on load: the link's board has a conflict).
  function notSolved(errors) {
    setStatus("not solved: " + errors.join("; "));
    $("status").setAttribute("data-done", "1");
  }
  // Solves for the method's `index`-th solution; `warnings` (what the link got wrong) stay
  // shown beside a solution.
  function solve(index, warnings) {
    var errors = check();
    if (errors.length) { showMessage(errors.join("; ")); notSolved(errors); return; }
    state.index = index;
    setStatus("solving with " + state.method + "…");
    $("status").removeAttribute("data-done");
    var request = { op: "solve", n: state.n, fix: state.fix, block: state.block, method: state.method, seed: state.seed, index: index };
    var version = state.version;
    if (jobs.busy()) jobs.restart();
    jobs.run({ request: request }, function (answer, ms) {
      $("status").setAttribute("data-done", "1");
      if (version !== state.version) { setStatus(""); return; } // the board changed meanwhile
      if (answer.error) { setStatus(answer.error); showMessage(answer.error); return; }
      if (answer.outcome !== "found") { setStatus(answer.message); state.solution = null; renderBoard(); return; }
      showMessage((warnings || []).join("; "));
      state.solution = answer.columns;
      var nodes = answer.stats.nodes !== undefined ? answer.stats.nodes : answer.stats.placements;
      setStatus(answer.method + ": solution " + (index + 1) + " in " + ms.toFixed(1) + " ms" +
        (nodes !== undefined ? ", " + nodes + " nodes" : ""));
      renderBoard();
    });
  }
  $("solve").addEventListener("click", function () { solve(0); });
  $("next").addEventListener("click", function () { solve(state.solution ? state.index + 1 : 0); });
  $("clear").addEventListener("click", function () { state.fix = []; state.solution = null; state.version++; update(); });
  $("clear-blocks").addEventListener("click", function () { state.block = []; state.solution = null; state.version++; update(); });
  $("tool").addEventListener("change", function () {
    state.tool = document.querySelector('input[name="tool"]:checked').value;
  });
  $("size").addEventListener("change", function () {
    var n = Number($("size").value);
    if (!Number.isInteger(n) || n < 1 || n > MAX_N) { showMessage("the board size must be a whole number from 1 to " + MAX_N); return; }
    state.n = n;
    var fits = function (q) { return q[0] <= n && q[1] <= n; };
    state.fix = state.fix.filter(fits);
    state.block = state.block.filter(fits);
    state.solution = null;
    state.version++;
    update();
  });
  $("method").addEventListener("change", function () { state.method = $("method").value; state.index = 0; followMethod(); writeHash(); });
  $("seed").addEventListener("change", function () {
    var seed = Number($("seed").value);
    if (!Number.isInteger(seed) || seed < 0) { showMessage("the seed must be a whole number ≥ 0"); return; }
    state.seed = seed;
    writeHash();
  });
  window.addEventListener("hashchange", loadFromHash);

  // ---- exports -----------------------------------------------------------------------------
  function download(name, type, text) {
    var link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([text], { type: type }));
    link.download = name;
    document.body.appendChild(link);
    link.click();
    link.remove();
  }
  function boardQueens() {
    return queensShown().filter(function (q) { return !q.fixed; }).map(function (q) { return [q.r, q.c]; });
  }
  $("export-svg").addEventListener("click", function () {
    var answer = engine.call({ op: "svg", n: state.n, fix: state.fix, block: state.block, queens: boardQueens() });
    if (answer.error) { showMessage(answer.error); return; }
    $("export-text").value = answer.svg;
    download("nqueens-" + state.n + ".svg", "image/svg+xml", answer.svg);
  });
  $("export-fix").addEventListener("click", function () {
    var all = state.fix.concat(boardQueens());
    var answer = engine.call({ op: "fix_file", n: state.n, fix: all, block: state.block });
    if (answer.error) { showMessage(answer.error); return; }
    $("export-text").value = answer.text;
    download("nqueens-" + state.n + ".txt", "text/plain", answer.text);
  });
  // Any board the CLI reads opens here, read by the library as --fix-file reads it.
  $("open-text").addEventListener("click", function () {
    var answer = engine.call({ op: "read", text: $("export-text").value });
    if (answer.error) { showMessage("the board text: " + answer.error); return; }
    setBoard(answer.n, answer.fix, answer.block);
    update();
    solve(0);
  });
  $("share").addEventListener("click", function () {
    writeHash();
    if (navigator.clipboard) navigator.clipboard.writeText(location.href).catch(function () {});
    setStatus("link: " + location.href);
  });

  // ---- race --------------------------------------------------------------------------------
  function drawRace(results) {
    var body = $("race-table").querySelector("tbody");
    body.innerHTML = "";
    var max = 0;
    results.forEach(function (r) { if (!r.answer.error) max = Math.max(max, r.ms); });
    var chart = [];
    results.forEach(function (r) {
      var a = r.answer;
      var nodes = a.stats ? (a.stats.nodes !== undefined ? a.stats.nodes : a.stats.placements !== undefined ? a.stats.placements : a.stats.decisions) : undefined;
      var result = a.error ? a.error : a.outcome === "found" ? "solved" : a.message;
      var tr = document.createElement("tr");
      tr.setAttribute("data-method", r.method);
      [r.method, result, a.error ? "—" : r.ms.toFixed(2), nodes === undefined ? "—" : String(nodes)].forEach(function (text) {
        var td = document.createElement("td");
        td.textContent = text;
        tr.appendChild(td);
      });
      body.appendChild(tr);
      var width = a.error || max === 0 ? 0 : Math.max(1, 100 * r.ms / max);
      chart.push('<div class="bar-row"><span class="bar-label">' + r.method + '</span><span class="bar" style="width:' +
        width.toFixed(1) + '%"></span><span class="bar-value">' + (a.error ? "n/a" : r.ms.toFixed(1) + " ms") + "</span></div>");
    });
    $("race-chart").innerHTML = chart.join("");
  }
  $("race").addEventListener("click", function () {
    var errors = check();
    if (errors.length) { showMessage(errors.join("; ")); return; }
    if (jobs.busy()) jobs.restart();
    $("race-table").removeAttribute("data-done");
    jobs.run({ race: { n: state.n, fix: state.fix, block: state.block, seed: state.seed } }, function (answer) {
      if (answer.error) { showMessage(answer.error); return; }
      drawRace(answer.results);
      $("race-table").setAttribute("data-done", "1");
    }, drawRace);
  });

  // ---- replay ------------------------------------------------------------------------------
  var replay = { trace: null, at: 0, timer: null, board: [], covered: {}, domains: [], nodes: 0, solutions: 0, crossed: {}, blocked: {} };
  function replayRender() {
    var t = replay.trace;
    var el = $("replay-board");
    if (!t) { el.innerHTML = ""; return; }
    var n = t.n;
    el.style.setProperty("--n", n);
    var html = [];
    for (var r = 0; r < n; r++) {
      html.push('<div class="row">');
      for (var c = 0; c < n; c++) {
        var cls = "sq " + ((r + c) % 2 === 0 ? "light" : "dark") + (replay.blocked[r + ":" + c] ? " blocked" : "");
        var cov = replay.covered;
        // The items as the encoding (and xc-export) names them: r and c 1-based, a the sum
        // ROW + COL, b the difference ROW − COL.
        if (cov["r" + (r + 1)] || cov["c" + (c + 1)]) cls += " covered";
        else if (cov["b" + (r - c)] || cov["a" + (r + c + 2)]) cls += " covered-diagonal";
        var inner = "";
        if (replay.domains.length) {
          var d = replay.domains[r];
          if (!(d & (1 << c))) cls += " pruned";
          else if ((d & (d - 1)) === 0) inner = '<span class="queen solved" data-replay-queen="' + (r + 1) + ":" + (c + 1) + '">♛</span>';
          else inner = '<span class="dot">·</span>';
        } else if (replay.board[r] === c) {
          inner = '<span class="queen solved" data-replay-queen="' + (r + 1) + ":" + (c + 1) + '">♛</span>';
        } else if (replay.crossed[r + ":" + c]) {
          cls += " pruned";
          inner = '<span class="dot">×</span>';
        }
        html.push('<div class="' + cls + '">' + inner + "</div>");
      }
      html.push("</div>");
    }
    el.innerHTML = html.join("");
    var done = replay.at >= t.events.length;
    var status = $("replay-status");
    var work = t.method === "sat"
      ? " · decisions " + replay.nodes + " · conflicts " + replay.conflicts + " · learnt " + replay.learnt
      : " · nodes " + replay.nodes;
    status.textContent = "step " + replay.at + " of " + t.events.length + work +
      " · solutions " + replay.solutions + (replay.restarts ? " · restarts " + replay.restarts : "") +
      (replay.deadEnd ? (t.method === "sat" ? " · conflict: a clause is false" : " · dead end: a row has no square left") : "") +
      (done ? " · finished" + (t.truncated ? " (cut short after " + t.nodes + " nodes)" : "") : "");
    status.setAttribute("data-step", String(replay.at));
    status.setAttribute("data-nodes", String(replay.nodes));
    status.setAttribute("data-engine-nodes", String(t.nodes));
    status.setAttribute("data-total", String(t.events.length));
    if (done) status.setAttribute("data-finished", "1"); else status.removeAttribute("data-finished");
    var items = Object.keys(replay.covered).filter(function (k) { return replay.covered[k]; });
    $("replay-items").textContent = items.length ? "covered items: " + items.join(" ") : "";
  }
  // The events are the engine's own steps (nqueens_solver::trace): the ones the engine counts as
  // nodes are a queen placed by backtracking, an item exact cover branches on, and both
  // branches of CP, so the count shown ends at the engine's own --stats figure.
  function replayApply(e) {
    replay.deadEnd = false;
    switch (e.t) {
      case "place": replay.board[e.r] = e.c; if (replay.trace.method === "backtrack") replay.nodes++; break;
      case "remove": replay.board[e.r] = -1; break;
      case "branch": replay.covered[e.item] = true; replay.nodes++; break;
      case "cover": replay.covered[e.item] = true; break;
      case "uncover": delete replay.covered[e.item]; break;
      case "assign":
      case "refute": replay.domains = e.d; replay.nodes++; replay.deadEnd = e.failed; break;
      case "restart":
        replay.domains = replay.trace.start.slice();
        replay.restarts++;
        satUndo(0);
        break;
      case "decide":
        if (replay.satSolved) { satUndo(0); replay.satSolved = false; }
        replay.decisions.push(e);
        if (e.r !== null) {
          if (e.queen) replay.board[e.r] = e.c; else replay.crossed[e.r + ":" + e.c] = true;
        }
        replay.nodes++;
        break;
      case "conflict": replay.conflicts++; replay.deadEnd = true; break;
      case "learn": replay.learnt++; satUndo(e.backjump); break;
      case "solution":
        replay.solutions++;
        if (replay.trace.method === "sat") {
          // SAT's propagations are no events: the model comes whole.
          replay.crossed = {};
          e.columns.forEach(function (c, r) { replay.board[r] = c; });
          replay.satSolved = true;
        }
        break;
    }
  }
  // SAT: undoes the decisions above `level` (a back-jump, a restart, the next model's search).
  function satUndo(level) {
    if (replay.trace.method !== "sat") return;
    replay.decisions = replay.decisions.filter(function (d) { return d.level <= level; });
    replay.crossed = {};
    for (var r = 0; r < replay.trace.n; r++) replay.board[r] = -1;
    // The fixed queens are unit clauses: true from the start, whatever is undone.
    replay.fixed.forEach(function (q) { replay.board[q[0] - 1] = q[1] - 1; });
    replay.decisions.forEach(function (d) {
      if (d.r === null) return;
      if (d.queen) replay.board[d.r] = d.c; else replay.crossed[d.r + ":" + d.c] = true;
    });
  }
  function replayStep(count) {
    var t = replay.trace;
    if (!t) return;
    for (var i = 0; i < count && replay.at < t.events.length; i++) replayApply(t.events[replay.at++]);
    if (replay.at >= t.events.length) replayPause();
    replayRender();
  }
  function replayPause() { if (replay.timer) { clearInterval(replay.timer); replay.timer = null; } }
  function replayLoad(then) {
    replayPause();
    if (state.n > 16) { $("replay-status").textContent = "the replay takes boards up to n = 16"; return; }
    var request = { op: "trace", n: state.n, fix: state.fix, block: state.block, method: $("replay-method").value, all: $("replay-all").checked };
    if (state.seed !== null && state.seed !== undefined) request.seed = state.seed;
    $("replay-status").textContent = "recording the search…";
    if (jobs.busy()) jobs.restart();
    jobs.run({ request: request }, function (answer) {
      if (answer.error) { $("replay-status").textContent = answer.error; return; }
      replay = { trace: answer, at: 0, timer: null, board: [], covered: {}, domains: answer.start.slice(), nodes: 0, solutions: 0, restarts: 0, deadEnd: false,
        decisions: [], crossed: {}, conflicts: 0, learnt: 0, satSolved: false, fixed: request.fix.slice(), blocked: {} };
      // By 0-based "row:col", as the replay's loops number squares.
      request.block.forEach(function (b) { replay.blocked[(b[0] - 1) + ":" + (b[1] - 1)] = true; });
      for (var r = 0; r < answer.n; r++) replay.board[r] = -1;
      if (request.method === "dlx" || request.method === "sat") state.fix.forEach(function (q) { replay.board[q[0] - 1] = q[1] - 1; });
      replayRender();
      if (then) then();
    });
  }
  $("replay-load").addEventListener("click", function () { replayLoad(); });
  $("replay-step").addEventListener("click", function () { if (replay.trace) replayStep(1); else replayLoad(function () { replayStep(1); }); });
  $("replay-play").addEventListener("click", function () {
    var go = function () {
      replayPause();
      var speed = Number($("replay-speed").value);
      var per = Math.max(1, Math.round(speed / 50));
      replay.timer = setInterval(function () { replayStep(per); }, Math.max(20, 1000 / speed));
    };
    if (replay.trace && replay.at < replay.trace.events.length) go(); else replayLoad(go);
  });
  $("replay-pause").addEventListener("click", replayPause);
  $("replay-end").addEventListener("click", function () {
    var end = function () { replayStep(Infinity); };
    if (replay.trace) end(); else replayLoad(end);
  });
  $("replay-speed").addEventListener("input", function () { if (replay.timer) $("replay-play").click(); });

  // ---- gallery -----------------------------------------------------------------------------
  function miniBoard(columns, label) {
    var n = columns.length;
    var s = ['<svg viewBox="0 0 ' + n + " " + n + '" class="mini" role="img" aria-label="' + label + '">'];
    for (var r = 0; r < n; r++) {
      for (var c = 0; c < n; c++) {
        if ((r + c) % 2) s.push('<rect x="' + c + '" y="' + r + '" width="1" height="1" fill="#b58863"/>');
      }
      s.push('<circle cx="' + (columns[r] - 0.5) + '" cy="' + (r + 0.5) + '" r="0.35" fill="#1a1a1a"/>');
    }
    s.push("</svg>");
    return s.join("");
  }
  $("gallery").addEventListener("click", function () {
    if (state.n > 12) { $("gallery-status").textContent = "the gallery shows boards up to n = 12"; return; }
    $("gallery-status").textContent = "listing…";
    if (jobs.busy()) jobs.restart();
    jobs.run({ request: { op: "gallery", n: state.n } }, function (answer) {
      if (answer.error) { $("gallery-status").textContent = answer.error; return; }
      $("gallery-status").textContent = answer.total + " solutions in " + answer.classes.length + " symmetry classes";
      var list = $("gallery-list");
      list.innerHTML = "";
      var shown = 0;
      var more = function () {
        var html = [];
        for (var i = shown; i < Math.min(answer.classes.length, shown + 60); i++) {
          var k = answer.classes[i];
          html.push('<figure class="class"><button type="button" class="pick" data-columns="' + k.canonical.join(",") + '">' +
            miniBoard(k.canonical, "class " + (i + 1)) + "</button><figcaption>class " + (i + 1) + ": " + k.members.length +
            ' boards <details data-class="' + i + '"><summary>members</summary></details></figcaption></figure>');
        }
        shown = Math.min(answer.classes.length, shown + 60);
        list.insertAdjacentHTML("beforeend", html.join(""));
        var old = $("gallery-more");
        if (old) old.remove();
        if (shown < answer.classes.length) {
          list.insertAdjacentHTML("beforeend", '<button id="gallery-more" type="button">More classes (' + (answer.classes.length - shown) + " left)</button>");
          $("gallery-more").addEventListener("click", more);
        }
      };
      more();
      gallery = answer;
    });
  });
  // A class's members are drawn when its list is opened (n = 12 has 14 200 boards).
  var gallery = null;
  $("gallery-list").addEventListener("toggle", function (event) {
    var details = event.target;
    if (!gallery || !details.open || details.getAttribute("data-drawn")) return;
    var k = gallery.classes[Number(details.getAttribute("data-class"))];
    details.insertAdjacentHTML("beforeend", k.members.map(function (m) {
      return '<button type="button" class="pick" data-columns="' + m.join(",") + '">' + miniBoard(m, m.join(" ")) + "</button>";
    }).join(""));
    details.setAttribute("data-drawn", "1");
  }, true);
  $("gallery-list").addEventListener("click", function (event) {
    var pick = event.target.closest(".pick");
    if (!pick) return;
    // A gallery board is a solution of the empty board: no fixed queens, no blocks.
    state.fix = [];
    state.block = [];
    state.version++;
    state.solution = pick.getAttribute("data-columns").split(",").map(Number);
    state.index = 0;
    update();
    setStatus("a gallery board");
    window.scrollTo(0, 0);
  });

  loadFromHash();
  document.documentElement.setAttribute("data-ready", "1");
})();

// The counter's loop on a GPU: one invocation searches one sub-board to the end (or, with
// REFILL, one sub-board after another).
//
// This is `nqueens::engines::counter::kernel`'s one-board loop written again in WGSL: the same
// masks (bits at or above n set, so a row is exhausted when its mask is all ones), the same
// four-row lookahead, and the same symmetry rules (a solution on no tie square counts eight; a
// tied one is checked exactly by `canonical_orbit`, the twin of the Rust function of that
// name). It places exactly the queens the Rust loop places, in the same order; its answers are
// tested against the Rust loop sub-board by sub-board, node counts included, in every variant
// (`nqueens::engines::counter::device::count_sub_board`).
//
// # Variants
//
// The host compiles this source with a few constants and switches set (lib.rs, `Tuning`): the
// constants WORKGROUP (invocations per workgroup) and STACK_ROWS (rows a workgroup-memory stack
// holds per invocation), and the lines between `//# if NAME` (or `//# if !NAME`), `//# else` and
// `//# end` kept or dropped:
//
// - FRAME_QUEEN: the stack holds one word per row, the queen's bit; on the way back up the
//   row's masks are recomputed from it (the bits a shift pushed off the word are kept in two
//   registers, `lost_left` and `lost_right`) and its squares still to try are all those above
//   the queen. Without it ("wide" frames), the stack holds the row's four masks and its number,
//   pushed only when the row has squares left, and every queen placed is written to `queens`.
// - STACK_WORKGROUP (with FRAME_QUEEN): the stack in workgroup memory, the invocations of a
//   workgroup interleaved word by word; else in the invocation's private memory.
// - TABLES_WORKGROUP: every class's row masks copied into workgroup memory at the start; else
//   read from the storage buffer.
// - REFILL: an invocation that finishes its sub-board takes the next one not yet taken (an
//   atomic counter), so lanes do not idle while the slowest sub-board of their group runs.
// - CONSTELLATIONS: the constellation kernel (lib.rs, constellations.rs): `tables` holds one
//   border-queen constellation per entry, its rows the ones without a border queen (the last
//   row searched in `last`), and a per-row shift carries the diagonals across the rows left
//   out; every completion counts once (the host multiplies by the orbit's size), so there is
//   no symmetry check. Its steps are tested against `constellations::emulate` start by start.
// - LAST_ROW: a queen placed in row n − 2 that leaves row n − 1 a free square completes a
//   solution there and then (that square is the only one left): the Rust loop places the last
//   queen and backs up, two more steps for the same two nodes.
//
// The loop places one queen per iteration; a row found done backs up to the row above and goes
// on to that row's next square in the same iteration.
//
// WGSL has no 64-bit integers: each sub-board's counters are u32 words, which cannot overflow
// because an invocation takes fewer than 2^31 steps (the host keeps the budget below that).
//
// # The step budget
//
// Each invocation does at most `params.budget` steps (an iteration of the loop, a sub-board
// loaded counted as its rows, a tied solution's check as 8n), then gives up on its sub-board and
// says so (`state` GAVE_UP); the host cuts such a sub-board a row deeper and sends the pieces
// again, and sends again as it is any sub-board no invocation took or one taken by an
// invocation that had spent part of its budget on others (`state` UNTOUCHED). The budget keeps
// every dispatch short on a real GPU (a display driver's watchdog), and on Mesa's software
// driver it is essential: llvmpipe ends every loop of a shader once 65,535 iterations of all
// its loops together have run (LP_MAX_TGSI_LOOP_ITERATIONS), counted per group of SIMD lanes,
// which would cut a search short without a word. One flat loop (one step per iteration, the
// lookahead unrolled) makes the lanes' iterations overlap, so the group's count stays below
// the budget plus the lanes' symmetry checks.

struct Params {
    n: u32,
    // Sub-boards in this dispatch.
    count: u32,
    // Invocations per row of the dispatch grid (workgroups in x times the workgroup size).
    width: u32,
    // Steps an invocation may take before it gives up.
    budget: u32,
}

//# if CONSTELLATIONS
struct ClassTable {
    // Per row searched (the rows without a border queen), the squares not allowed (bits at or
    // above n set).
    blocked: array<u32, 32>,
    // Per row, the shifts that carry its diagonals 1..4 rows searched down (a byte each).
    shifts: array<u32, 32>,
    // The last row searched.
    last: u32,
    // To 68 words (a vec3 would align the struct to 16 bytes).
    pad0: u32,
    pad1: u32,
    pad2: u32,
}
//# else
struct ClassTable {
    // Per row, the squares the class does not allow (bits at or above n set).
    blocked: array<u32, 32>,
    tie_rows: vec2<u32>,
    side_squares: u32,
    last_square: u32,
}
//# end

struct Board {
    b1: u32,
    row: u32,
    columns: u32,
    left: u32,
    right: u32,
    // The columns of rows 0..row, four to a word, row 0 in the low byte.
    prefix: array<u32, 8>,
}

struct Found {
    eightfold: u32,
    tied_total: u32,
    tied_unique: u32,
    nodes: u32,
    // UNTOUCHED, DONE or GAVE_UP (then the counts are meaningless).
    state: u32,
    // The steps the sub-board took (see the budget).
    steps: u32,
}

const UNTOUCHED: u32 = 0u;
const DONE: u32 = 1u;
const GAVE_UP: u32 = 2u;

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> tables: array<ClassTable>;
@group(0) @binding(2) var<storage, read> boards: array<Board>;
@group(0) @binding(3) var<storage, read_write> results: array<Found>;
//# if REFILL
// Sub-boards taken so far (the host zeroes it before each dispatch).
@group(0) @binding(4) var<storage, read_write> taken_boards: atomic<u32>;
//# end

const FULL: u32 = 0xffffffffu;

// The search's state: the row being filled and its masks.
struct Search {
    // The sub-board (its index in `boards`).
    board: u32,
    b1: u32,
    // The sub-board's first row.
    base: u32,
    row: u32,
    // Squares of `row` tried or not available (all ones: the row is done).
    taken: u32,
    columns: u32,
    left: u32,
    right: u32,
}

// The column of each row's queen: on the current path (wide frames), or gathered for the
// symmetry check (FRAME_QUEEN).
var<private> queens: array<u32, 32>;

// This invocation's index in its workgroup.
var<private> lane: u32;

//# if TABLES_WORKGROUP
// Every class's row masks (at most 17 classes of 32 rows), copied from `tables`.
var<workgroup> class_rows: array<u32, 544>;

fn blocked(b1: u32, row: u32) -> u32 {
    return class_rows[b1 * 32u + row];
}
//# else
fn blocked(b1: u32, row: u32) -> u32 {
    return tables[b1].blocked[row];
}
//# end

//# if CONSTELLATIONS
// The shift that carries row `row`'s diagonals `k` rows searched down (the border queens' rows
// are not searched: their squares are in the tables).
fn shift(b1: u32, row: u32, k: u32) -> u32 {
    return (tables[b1].shifts[row] >> (8u * (k - 1u))) & 0xffu;
}

fn last_row(b1: u32) -> u32 {
    return tables[b1].last;
}
//# else
fn shift(b1: u32, row: u32, k: u32) -> u32 {
    return k;
}

fn last_row(b1: u32) -> u32 {
    return params.n - 1u;
}
//# end

//# if FRAME_QUEEN
//# if STACK_WORKGROUP
var<workgroup> frames: array<u32, STACK_ROWS * WORKGROUP>;

fn frame(f: u32) -> u32 {
    return frames[f * WORKGROUP + lane];
}

fn set_frame(f: u32, queen: u32) {
    frames[f * WORKGROUP + lane] = queen;
}
//# else
var<private> frames: array<u32, 32>;

fn frame(f: u32) -> u32 {
    return frames[f];
}

fn set_frame(f: u32, queen: u32) {
    frames[f] = queen;
}
//# end
//# else
// The wide frames: the row's taken squares and masks, and the row.
var<private> stack: array<vec4<u32>, 32>;
var<private> stack_row: array<u32, 32>;
//# end

fn prefix_column(board: u32, row: u32) -> u32 {
    return (boards[board].prefix[row / 4u] >> (8u * (row % 4u))) & 0xffu;
}

// The queen of `row` (a bit) on the current path of `s`, the rows below `s.row` written.
fn queen_bit(s: Search, row: u32) -> u32 {
//# if FRAME_QUEEN
    if row < s.base {
        return 1u << prefix_column(s.board, row);
    }
    return frame(row - s.base);
//# else
    return 1u << queens[row];
//# end
}

fn load(index: u32) -> Search {
    var s: Search;
    s.board = index;
    s.b1 = boards[index].b1;
    s.base = boards[index].row;
    s.row = s.base;
    s.columns = boards[index].columns;
    s.left = boards[index].left;
    s.right = boards[index].right;
    s.taken = s.columns | s.left | s.right | blocked(s.b1, s.row);
//# if !FRAME_QUEEN
    for (var r = 0u; r < s.base; r++) {
        queens[r] = prefix_column(index, r);
    }
//# end
    return s;
}

//# if !CONSTELLATIONS
fn corner_distance(col: u32, last: u32) -> u32 {
    return min(col, last - col);
}

// Row i of image k of the solution in `queens` (k = 0..6: the rotations by 90, 180 and 270
// degrees, the mirror images in the columns and in the rows, the transpose and the
// anti-transpose), given the inverse permutation.
fn image(k: u32, i: u32, last: u32, inverse: ptr<function, array<u32, 32>>) -> u32 {
    switch k {
        case 0u: { return last - (*inverse)[i]; }
        case 1u: { return last - queens[last - i]; }
        case 2u: { return (*inverse)[last - i]; }
        case 3u: { return last - queens[i]; }
        case 4u: { return queens[last - i]; }
        case 5u: { return (*inverse)[i]; }
        default: { return last - (*inverse)[last - i]; }
    }
}

// The size of the symmetry class of the solution in `queens` if it is the class's canonical
// member, else 0 (see `kernel::canonical_orbit`).
fn canonical_orbit(n: u32) -> u32 {
    let last = n - 1u;
    var inverse: array<u32, 32>;
    for (var row = 0u; row < n; row++) {
        inverse[queens[row]] = row;
    }
    var stabilizer = 1u;
    for (var k = 0u; k < 7u; k++) {
        let own = corner_distance(queens[0], last);
        let theirs = corner_distance(image(k, 0u, last, &inverse), last);
        if own < theirs {
            return 0u;
        }
        if own > theirs {
            continue;
        }
        // Equally far: the lexicographically smaller column list comes first.
        var order = 0; // -1: the image comes first, 1: the solution does
        for (var i = 0u; i < n; i++) {
            let a = image(k, i, last, &inverse);
            let b = queens[i];
            if a < b {
                order = -1;
                break;
            }
            if a > b {
                order = 1;
                break;
            }
        }
        if order < 0 {
            return 0u;
        }
        if order == 0 {
            stabilizer += 1u;
        }
    }
    return 8u / stabilizer;
}

//# end

//# if CONSTELLATIONS
// Counts the solution completed on the path of `s`: once (the host multiplies by the
// constellation's orbit). Returns the steps it took: none.
fn count_solution(s: Search, n: u32, found: ptr<function, Found>) -> u32 {
    (*found).eightfold += 1u;
    return 0u;
}
//# else
// Counts the solution completed on the path of `s` (every row's queen written): eightfold
// unless it has a queen on a tie square, else by the exact check. Returns the steps it took.
fn count_solution(s: Search, n: u32, found: ptr<function, Found>) -> u32 {
    let last = n - 1u;
    let tie_rows = tables[s.b1].tie_rows;
    let side_squares = tables[s.b1].side_squares;
    let tied = (queen_bit(s, tie_rows.x) & side_squares) != 0u
        || (queen_bit(s, tie_rows.y) & side_squares) != 0u
        || queen_bit(s, last) == tables[s.b1].last_square;
    if !tied {
        (*found).eightfold += 1u;
        return 0u;
    }
//# if FRAME_QUEEN
    for (var r = 0u; r < n; r++) {
        queens[r] = countTrailingZeros(queen_bit(s, r));
    }
//# end
    let orbit = canonical_orbit(n);
    if orbit != 0u {
        (*found).tied_total += orbit;
        (*found).tied_unique += 1u;
    }
    return 8u * n;
}
//# end

// Writes the queen `bit` of `row` where `queen_bit` finds it.
fn record_queen(s: Search, row: u32, bit: u32) {
//# if FRAME_QUEEN
    set_frame(row - s.base, bit);
//# else
    queens[row] = countTrailingZeros(bit);
//# end
}

@compute @workgroup_size(WORKGROUP)
fn count(
    @builtin(global_invocation_id) id: vec3<u32>,
    @builtin(local_invocation_index) local: u32,
) {
    lane = local;
//# if TABLES_WORKGROUP
    let words = arrayLength(&tables) * 32u;
    for (var i = local; i < words; i += WORKGROUP) {
        class_rows[i] = tables[i / 32u].blocked[i % 32u];
    }
    workgroupBarrier();
//# end
//# if REFILL
    var index = atomicAdd(&taken_boards, 1u);
//# else
    var index = id.x + id.y * params.width;
//# end
    if index >= params.count {
        return;
    }
    let n = params.n;
    var s = load(index);
    var found: Found;
    var steps = s.base;
    // Whether this is the invocation's first sub-board (then the whole budget was its own).
    var fresh = true;
    var first_step = s.base;
//# if FRAME_QUEEN
    // The bits the last shifts pushed off `left` (bit 31) and `right` (bit 0), one per row.
    var lost_left = 0u;
    var lost_right = 0u;
//# else
    var depth = 0u;
//# end
    loop {
        if s.taken == FULL {
//# if FRAME_QUEEN
            let finished = s.row == s.base;
//# else
            let finished = depth == 0u;
//# end
            if finished {
                found.state = DONE;
                found.steps = steps - first_step;
                results[index] = found;
//# if REFILL
                if steps >= params.budget {
                    break;
                }
                index = atomicAdd(&taken_boards, 1u);
                if index >= params.count {
                    break;
                }
                s = load(index);
                found = Found();
                steps += 1u + s.base;
                first_step = steps;
                fresh = false;
                continue;
//# else
                break;
//# end
            }
            // The row is done: back to the row above (wide frames: the last row with squares
            // left).
//# if FRAME_QUEEN
            s.row -= 1u;
            let queen = frame(s.row - s.base);
            let back = shift(s.b1, s.row, 1u);
            let low = (1u << back) - 1u;
            s.columns ^= queen;
            s.left = ((s.left >> back) | ((lost_left & low) << (32u - back))) & ~queen;
            s.right = ((s.right << back) | (lost_right & low)) & ~queen;
            lost_left >>= back;
            lost_right >>= back;
            // Every square up to the queen has been tried.
            s.taken = s.columns | s.left | s.right | blocked(s.b1, s.row) | (queen | (queen - 1u));
//# else
            depth -= 1u;
            let top = stack[depth];
            s.taken = top.x;
            s.columns = top.y;
            s.left = top.z;
            s.right = top.w;
            s.row = stack_row[depth];
//# end
            if s.taken == FULL {
                // (FRAME_QUEEN) that row is done too.
                steps += 1u;
                continue;
            }
            // Else on to its next square in the same iteration (and step).
        }
        if steps >= params.budget {
            // A sub-board taken with part of the budget spent on others is sent again as it
            // is; one that exhausts a whole budget is cut deeper.
            found.state = select(UNTOUCHED, GAVE_UP, fresh);
            results[index] = found;
            break;
        }
        steps += 1u;
        let bit = ~s.taken & (s.taken + 1u);
        s.taken |= bit;
        found.nodes += 1u;
//# if !FRAME_QUEEN
        queens[s.row] = countTrailingZeros(bit);
//# end
        let last = last_row(s.b1);
        let down = shift(s.b1, s.row, 1u);
        let next_columns = s.columns | bit;
        let next_left = (s.left | bit) << down;
        let next_right = (s.right | bit) >> down;
        // The lookahead: each of the next four rows inside the board must keep a free square
        // (rows beyond the board are skipped); after the last row there is nothing to descend
        // to.
        let attacked = next_columns | next_left | next_right;
        let rows_left = last - s.row;
        var dead = rows_left == 0u || (attacked | blocked(s.b1, s.row + 1u)) == FULL;
        if rows_left > 1u {
            let k = shift(s.b1, s.row + 1u, 1u);
            dead = dead || (next_columns | (next_left << k) | (next_right >> k)
                | blocked(s.b1, s.row + 2u)) == FULL;
        }
        if rows_left > 2u {
            let k = shift(s.b1, s.row + 1u, 2u);
            dead = dead || (next_columns | (next_left << k) | (next_right >> k)
                | blocked(s.b1, s.row + 3u)) == FULL;
        }
        if rows_left > 3u {
            let k = shift(s.b1, s.row + 1u, 3u);
            dead = dead || (next_columns | (next_left << k) | (next_right >> k)
                | blocked(s.b1, s.row + 4u)) == FULL;
        }
        // Whether this placement completes a solution.
        var solved = false;
        if !dead {
//# if LAST_ROW
            if rows_left == 1u {
                // Row n − 1 has one free square (the one free column): the solution's last
                // queen, placed and counted here.
                let free = ~(attacked | blocked(s.b1, last));
                found.nodes += 1u;
                record_queen(s, last, free & (0u - free));
                solved = true;
            } else {
//# end
//# if FRAME_QUEEN
            set_frame(s.row - s.base, bit);
            lost_left = (lost_left << down) | ((s.left | bit) >> (32u - down));
            lost_right = (lost_right << down) | ((s.right | bit) & ((1u << down) - 1u));
//# else
            stack[depth] = vec4<u32>(s.taken, s.columns, s.left, s.right);
            stack_row[depth] = s.row;
            depth += select(0u, 1u, s.taken != FULL);
//# end
            s.columns = next_columns;
            s.left = next_left;
            s.right = next_right;
            s.row += 1u;
            s.taken = attacked | blocked(s.b1, s.row);
//# if LAST_ROW
            }
//# end
        } else {
            // A queen in the last row (a sub-board that starts there, or no LAST_ROW).
            solved = next_columns == FULL;
        }
        if solved {
//# if FRAME_QUEEN
            record_queen(s, s.row, bit);
//# end
            steps += count_solution(s, n, &found);
        }
    }
}

// The counter's loop on a GPU: one invocation searches one sub-board to the end.
//
// This is `nqueens::engines::counter::kernel`'s one-board loop written again in WGSL, line for
// line: the same masks (bits at or above n set, so a row is exhausted when its mask is all
// ones), the same four-row lookahead, an explicit stack that takes a frame only when a row
// still has squares to try, and the same symmetry rules (a solution on no tie square counts
// eight; a tied one is checked exactly by `canonical_orbit`, the twin of the Rust function of
// that name). Its answers are tested against the Rust loop sub-board by sub-board
// (`nqueens::engines::counter::device::count_sub_board`), node counts included.
//
// WGSL has no 64-bit integers: counters are two u32 words with a carry.
//
// Each invocation does at most `params.budget` steps (a queen placed, a frame popped, a tied
// solution's check counted as 8n), then gives up and says so (`unfinished`); the host cuts
// such a sub-board a row deeper and sends the pieces again. The budget keeps every dispatch
// short on a real GPU (a display driver's watchdog), and on Mesa's software driver it is
// essential: llvmpipe ends every loop of a shader once 65,535 iterations of all its loops
// together have run (LP_MAX_TGSI_LOOP_ITERATIONS), counted per group of SIMD lanes, which
// would cut a search short without a word. One flat loop (one step per iteration, the
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

struct ClassTable {
    // Per row, the squares the class does not allow (bits at or above n set).
    blocked: array<u32, 32>,
    tie_rows: vec2<u32>,
    side_squares: u32,
    last_square: u32,
}

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
    eightfold: vec2<u32>,
    tied_total: vec2<u32>,
    tied_unique: vec2<u32>,
    nodes: vec2<u32>,
    // 1 if the budget ran out (the rest is then meaningless), and a word of padding.
    unfinished: vec2<u32>,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> tables: array<ClassTable>;
@group(0) @binding(2) var<storage, read> boards: array<Board>;
@group(0) @binding(3) var<storage, read_write> results: array<Found>;

const FULL: u32 = 0xffffffffu;

// The column of each row's queen on the current path.
var<private> queens: array<u32, 32>;

fn add64(value: vec2<u32>, x: u32) -> vec2<u32> {
    let low = value.x + x;
    return vec2<u32>(low, value.y + select(0u, 1u, low < x));
}

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

@compute @workgroup_size(64)
fn count(@builtin(global_invocation_id) id: vec3<u32>) {
    let index = id.x + id.y * params.width;
    if index >= params.count {
        return;
    }
    let board = boards[index];
    let n = params.n;
    let last = n - 1u;
    let b1 = board.b1;
    for (var r = 0u; r < board.row; r++) {
        queens[r] = (board.prefix[r / 4u] >> (8u * (r % 4u))) & 0xffu;
    }
    let tie_rows = tables[b1].tie_rows;
    let side_squares = tables[b1].side_squares;
    let last_square = tables[b1].last_square;

    var found: Found;
    var stack: array<vec4<u32>, 32>;
    var stack_row: array<u32, 32>;
    var depth = 0u;
    var row = board.row;
    var columns = board.columns;
    var left = board.left;
    var right = board.right;
    var taken = columns | left | right | tables[b1].blocked[row];
    var steps = 0u;
    loop {
        if taken == FULL {
            // The row is done: back to the last row with squares left, or finished.
            if depth == 0u {
                break;
            }
            depth -= 1u;
            let frame = stack[depth];
            taken = frame.x;
            columns = frame.y;
            left = frame.z;
            right = frame.w;
            row = stack_row[depth];
            steps += 1u;
            continue;
        }
        if steps >= params.budget {
            found.unfinished.x = 1u;
            break;
        }
        steps += 1u;
        let bit = ~taken & (taken + 1u);
        taken |= bit;
        found.nodes = add64(found.nodes, 1u);
        queens[row] = countTrailingZeros(bit);
        let next_columns = columns | bit;
        let next_left = (left | bit) << 1u;
        let next_right = (right | bit) >> 1u;
        // The lookahead: each of the next four rows inside the board must keep a free square
        // (rows beyond the board read as all blocked and are skipped); after the last row
        // there is nothing to descend to.
        let attacked = next_columns | next_left | next_right;
        let rows_left = n - 1u - row;
        var dead = rows_left == 0u
            || (attacked | tables[b1].blocked[row + 1u]) == FULL;
        if rows_left > 1u {
            dead = dead || (next_columns | (next_left << 1u) | (next_right >> 1u)
                | tables[b1].blocked[row + 2u]) == FULL;
        }
        if rows_left > 2u {
            dead = dead || (next_columns | (next_left << 2u) | (next_right >> 2u)
                | tables[b1].blocked[row + 3u]) == FULL;
        }
        if rows_left > 3u {
            dead = dead || (next_columns | (next_left << 3u) | (next_right >> 3u)
                | tables[b1].blocked[row + 4u]) == FULL;
        }
        if !dead {
            stack[depth] = vec4<u32>(taken, columns, left, right);
            stack_row[depth] = row;
            depth += select(0u, 1u, taken != FULL);
            columns = next_columns;
            left = next_left;
            right = next_right;
            row += 1u;
            taken = attacked | tables[b1].blocked[row];
        } else if next_columns == FULL {
            let tied = ((1u << queens[tie_rows.x]) & side_squares) != 0u
                || ((1u << queens[tie_rows.y]) & side_squares) != 0u
                || (1u << queens[last]) == last_square;
            if !tied {
                found.eightfold = add64(found.eightfold, 1u);
            } else {
                steps += 8u * n;
                let orbit = canonical_orbit(n);
                if orbit != 0u {
                    found.tied_total = add64(found.tied_total, orbit);
                    found.tied_unique = add64(found.tied_unique, 1u);
                }
            }
        }
    }
    results[index] = found;
}

#!/usr/bin/env bash
# The MPI front end (crates/nqueens-mpi) under a real mpirun: every count of n = 8..15 on
# 1, 2, 3 and 4 ranks against the published table, a job killed with SIGKILL (a worker rank,
# then rank 0) and resumed to the exact count of n = 17, a job stopped inside its tasks by
# Ctrl-C and by SIGTERM to every rank that says what it saved (tasks in part included) and
# resumes from there node for node, a checkpoint `nqueens count` left in part resumed, a
# checkpoint of another n refused, and `--device gpu` on Mesa's software Vulkan driver (1 and 2
# ranks). Needs OpenMPI,
# libclang and the Vulkan loader with a driver: installed with apt-get when run as root,
# otherwise this fails naming the packages. About 2 to 4 minutes on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."

. scripts/debian-packages.sh
need_packages test-mpi "OpenMPI and libclang for the MPI binary, the Vulkan loader and Mesa's software driver for --device gpu" \
    libopenmpi-dev openmpi-bin clang libclang-dev libvulkan1 mesa-vulkan-drivers
command -v mpirun >/dev/null || { echo "test-mpi: mpirun not found (apt-get install openmpi-bin)" >&2; exit 1; }

. scripts/suite.sh
# The MPI binary's lints, with and without its GPU ranks: in the suite they are CI's clippy
# step's (.ci/run lints the workspace in the suite's features, where only nqueens-mpi is
# checked again for each variant); a part run alone lints them here.
if in_suite; then
    # scripts/test-all built both binaries once, with the suite's features (mpi and gpu here).
    echo "test-mpi: nqueens-mpi and nqueens from the suite's one build"
    echo "test-mpi: the MPI binary's lints are CI's clippy step (cargo clippy ${LINT_FLAGS[*]})"
else
    cargo build -p nqueens-mpi --features mpi,gpu --profile checked
    cargo build -p nqueens-cli --profile checked
    cargo clippy -p nqueens-mpi --features mpi --all-targets -- -D warnings
    cargo clippy -p nqueens-mpi --features mpi,gpu --all-targets -- -D warnings
fi
bin=$(suite_bin nqueens-mpi)
cli=$(suite_bin nqueens)

# Root may run MPI jobs here (a CI container); the box has fewer cores than ranks.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
run() { mpirun --oversubscribe -n "$@"; }

fail() { echo "test-mpi: FAIL: $*" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The published counts (OEIS A000170 and A002562), the table the library checks against.
table=crates/nqueens/data/nqueens-counts.tsv
expected() { awk -v n="$1" -v col="$2" -F'\t' '$1 == n { print $col }' "$table"; }
field() { sed -E "s/.*\"$1\":([0-9]+).*/\1/"; }

# Up to n = 15: every rank count splits those task lists as it splits larger ones (n = 17
# below is counted whole, twice); 16 and 17 took most of this loop's time.
echo "== counts of n = 8..15 on 1..4 ranks"
for ranks in 1 2 3 4; do
    for n in $(seq 8 15); do
        json=$(run "$ranks" "$bin" count "$n" --threads 1 --json)
        total=$(field subtotal <<<"$json")
        unique=$(field unique <<<"$json")
        [ "$total" = "$(expected "$n" 2)" ] || fail "P=$ranks n=$n total $total"
        [ "$unique" = "$(expected "$n" 3)" ] || fail "P=$ranks n=$n unique $unique"
    done
    echo "P = $ranks: n = 8..15 match A000170 and A002562"
done
[ "$(run 2 "$bin" count 12 --threads 1)" = 14200 ] || fail "plain output of n = 12"
[ "$(run 2 "$bin" count 12 --threads 1 --unique)" = 1787 ] || fail "--unique output of n = 12"
[ "$(run 3 "$bin" count 13 --threads 1 --split-depth +1)" = 73712 ] || fail "--split-depth +1"

# The process id of one rank of a running job (its environment names its rank).
rank_pid() {
    local pid
    for pid in $(pgrep -P "$1"); do
        if tr '\0' '\n' <"/proc/$pid/environ" 2>/dev/null | grep -qx "OMPI_COMM_WORLD_RANK=$2"; then
            echo "$pid"
            return
        fi
    done
}

# Finished tasks in a checkpoint (its result lines; a position line has CUT:PIECES second).
results() { tail -n +2 "$1" | awk 'NF && $2 !~ /:/'; }
records() { if [ -f "$1" ]; then results "$1" | grep -c ' ' || true; else echo 0; fi; }

# Starts the n = 17 job, waits until the checkpoint holds more than $2 records, SIGKILLs rank $1.
kill_rank_mid_run() {
    local victim=$1 beyond=$2 job pid
    mpirun --oversubscribe -n 3 "$bin" count 17 --threads 1 --checkpoint "$ckpt" >"$work/killed.out" 2>&1 &
    job=$!
    until [ "$(records "$ckpt")" -gt "$beyond" ]; do
        kill -0 "$job" 2>/dev/null || fail "the job ended before it could be killed"
        sleep 0.05
    done
    pid=$(rank_pid "$job" "$victim")
    [ -n "$pid" ] || fail "rank $victim not found"
    kill -KILL "$pid"
    if wait "$job"; then fail "a job with a killed rank succeeded"; fi
    echo "killed rank $victim with $(records "$ckpt") tasks recorded"
}

# n = 17 (10912 tasks; n = 18 took 80 of this part's 120 s for the same facts). Its small tasks
# come first: records reach the file thousands at a time (1205 in the first 8% of a job's time,
# 6591 by its 29%), so the polls below (every 50 ms) see the first kill's 300 records within
# the job's first third and the second's 300 more soon after the resumed job starts: both
# land mid-run even on a fast machine (a whole job takes about 2 s on two idle cores).
echo "== n = 17: SIGKILL of a rank mid-run, then the same command again"
ckpt=$work/n17.ckpt
kill_rank_mid_run 2 300
kill_rank_mid_run 0 "$(($(records "$ckpt") + 300))"
partial=$(records "$ckpt")
json=$(run 3 "$bin" count 17 --threads 1 --checkpoint "$ckpt" --stats --json 2>"$work/stats")
cat "$work/stats"
out=$(field subtotal <<<"$json")
# The queens a whole count of n = 17 places, for the node-for-node checks below.
nodes17=$(field nodes <<<"$json")
[ "$out" = 95815104 ] || fail "resumed count of n = 17 is $out"
grep -q "($partial resumed)" "$work/stats" || fail "the resumed run did not take the $partial recorded tasks"
tasks=$(head -1 "$ckpt" | sed -E 's/.* tasks=([0-9]+) .*/\1/')
[ "$(records "$ckpt")" = "$tasks" ] || fail "the checkpoint holds $(records "$ckpt") records for $tasks tasks"
[ -z "$(results "$ckpt" | cut -d' ' -f1 | sort | uniq -d)" ] || fail "a task recorded twice"
echo "n = 17 resumed: 95815104, every task recorded once"

echo "== Ctrl-C, then SIGTERM to every rank: tasks stopped inside, what was kept said, resumed node for node"
ickpt=$work/interrupted.ckpt
# Tasks whose position the checkpoint holds, and that it holds no result of.
in_part() {
    awk 'NR > 1 && $2 ~ /:/ { part[$1] = 1 } NR > 1 && $2 !~ /:/ { done[$1] = 1 }
         END { k = 0; for (id in part) if (!(id in done)) k++; print k }' "$1"
}
# Starts the n = 17 job (pieces of 9 rows: its tasks stop inside), lets it record more than $2
# tasks, stops it the way $1 says (ctrl-c: SIGINT to mpirun; sigterm: SIGTERM to every rank,
# as a scheduler does), and checks the line against the checkpoint. Returns 1 when no task was
# inside (every rank between two tasks, or at the first piece of one, at that instant): the
# stop is then right but shows nothing of the tasks stopped inside, and the caller stops again.
interrupt_job() {
    local how=$1 beyond=$2 job pids line saved kept
    NQUEENS_PIECE_ROWS=9 timeout -k 5 120 mpirun --oversubscribe -n 3 "$bin" count 17 --threads 1 \
        --checkpoint "$ickpt" >"$work/int.out" 2>"$work/int.err" &
    job=$!
    until [ "$(records "$ickpt")" -gt "$beyond" ]; do
        kill -0 "$job" 2>/dev/null || fail "the job ended before it could be interrupted"
        sleep 0.05
    done
    if [ "$how" = ctrl-c ]; then
        kill -INT "$(pgrep -P "$job" -x mpirun)"
    else
        pids=$(pgrep -P "$(pgrep -P "$job" -x mpirun)")
        # shellcheck disable=SC2086
        kill -TERM $pids
    fi
    status=0
    wait "$job" || status=$?
    # SIGTERM to the ranks (a scheduler's stop): every rank ends with 130, and so does mpirun.
    # SIGINT to mpirun: Open MPI's mpirun exits 1 whatever its ranks say (it sets its own
    # code when it is interrupted), so only "not 0" can be asked of it.
    if [ "$how" = sigterm ]; then
        [ "$status" = 130 ] || fail "sigterm: the job exits $status, not 130"
    else
        [ "$status" -ne 0 ] || fail "an interrupted job succeeded"
    fi
    line=$(grep "^interrupted: " "$work/int.err") || fail "$how: no interrupt line: $(cat "$work/int.err")"
    echo "$how: $line"
    saved=$(sed -E 's/^interrupted: ([0-9]+) of ([0-9]+) tasks saved in .*$/\1/' <<<"$line")
    [ "$saved" = "$(records "$ickpt")" ] || fail "$how: the line says $saved tasks saved, the checkpoint holds $(records "$ickpt")"
    kept=$(in_part "$ickpt")
    if [ "$kept" -eq 0 ]; then
        grep -q "^interrupted: $saved of [0-9]* tasks saved in $ickpt — run the same command to resume$" \
            "$work/int.err" || fail "$how: the line says tasks in part, the checkpoint has none: $line"
        echo "$how: no task was inside at that instant; stopping again"
        return 1
    fi
    grep -q "^interrupted: $saved of [0-9]* tasks saved in $ickpt, and $kept more in part — run the same command to resume$" \
        "$work/int.err" || fail "$how: the line does not say the $kept tasks in part: $line"
}
# Each way stopped up to three times, until a stop finds a task inside (nearly always the first).
stop_inside() {
    local how=$1 beyond=$2 try
    for try in 1 2 3; do
        interrupt_job "$how" "$beyond" && return 0
        beyond=$(($(records "$ickpt") + 300))
    done
    fail "$how: no task kept its pieces in three stops"
}
stop_inside ctrl-c 300
stop_inside sigterm "$(($(records "$ickpt") + 300))"
saved=$(records "$ickpt")
json=$(NQUEENS_PIECE_ROWS=9 run 2 "$bin" count 17 --threads 1 --checkpoint "$ickpt" --stats --json 2>"$work/stats-int")
[ "$(field subtotal <<<"$json")" = 95815104 ] || fail "resumed count of n = 17 after the stops: $json"
[ "$(field nodes <<<"$json")" = "$nodes17" ] || fail "resumed after the stops, $(field nodes <<<"$json") queens placed, not $nodes17"
grep -q "($saved resumed)" "$work/stats-int" || fail "the resumed run did not take the $saved saved tasks"
# One rank without mpirun: the same line, exit 130, no MPI_ABORT banner.
status=0
timeout --preserve-status -s INT 2 "$bin" count 18 --threads 1 >/dev/null 2>"$work/int1.err" || status=$?
[ "$status" = 130 ] || fail "a single rank interrupted exits $status, not 130"
grep -q "^interrupted after [0-9.]* s: no checkpoint, nothing saved" "$work/int1.err" || fail "single rank: $(cat "$work/int1.err")"
! grep -q MPI_ABORT "$work/int1.err" || fail "a single rank aborted the job: $(cat "$work/int1.err")"
echo "stopped twice inside its tasks, resumed to 95815104 node for node; one rank: exit 130"

echo "== --time-limit: exit 3, what was kept said, resumed to the count; --progress on rank 0"
tckpt=$work/limited.ckpt
status=0
NQUEENS_PROGRESS_DELAY_MS=0 run 2 "$bin" count 17 --threads 1 --checkpoint "$tckpt" --time-limit 0.5 \
    --progress-every 0.1 >"$work/limited.out" 2>"$work/limited.err" || status=$?
[ "$status" = 3 ] || fail "--time-limit: exit $status, not 3: $(cat "$work/limited.err")"
line=$(grep "^gave up: time limit reached: " "$work/limited.err") || fail "--time-limit: no line: $(cat "$work/limited.err")"
echo "$line"
saved=$(sed -E 's/^gave up: time limit reached: ([0-9]+) of .*/\1/' <<<"$line")
[ "$saved" = "$(records "$tckpt")" ] || fail "--time-limit: the line says $saved saved, the checkpoint holds $(records "$tckpt")"
grep -q "^gave up: time limit reached: $saved of 10912 tasks saved in $tckpt.* — run the same command to resume$" \
    "$work/limited.err" || fail "--time-limit: $line"
[ ! -s "$work/limited.out" ] || fail "--time-limit printed a count: $(cat "$work/limited.out")"
# Progress lines: the whole count's tasks, solutions, the time taken.
grep -Eq "^[0-9]+/10912 tasks .* [0-9]+ solutions .* [0-9]+ s$" "$work/limited.err" ||
    fail "--progress: no progress line: $(cat "$work/limited.err")"
[ "$(run 2 "$bin" count 17 --threads 1 --checkpoint "$tckpt" --stats 2>"$work/stats-lim")" = 95815104 ] ||
    fail "the checkpoint of a time limit did not resume to the count of n = 17"
grep -q "($saved resumed)" "$work/stats-lim" || fail "the resumed run did not take the $saved saved tasks"
# One rank without mpirun: the same line, exit 3, no MPI_ABORT banner.
status=0
"$bin" count 17 --threads 1 --time-limit 0.2 >/dev/null 2>"$work/limited1.err" || status=$?
[ "$status" = 3 ] || fail "one rank at its time limit exits $status, not 3"
grep -q "^gave up: time limit reached after [0-9.]* s: no checkpoint, nothing saved" "$work/limited1.err" ||
    fail "one rank at its time limit: $(cat "$work/limited1.err")"
! grep -q MPI_ABORT "$work/limited1.err" || fail "one rank at its time limit aborted: $(cat "$work/limited1.err")"
echo "--time-limit stopped n = 17 with exit 3 at $saved tasks, resumed to 95815104; one rank: exit 3"

echo "== a checkpoint of another n is refused"
cp "$ckpt" "$work/before"
status=0
run 2 "$bin" count 16 --threads 1 --checkpoint "$ckpt" >"$work/refused.out" 2>&1 || status=$?
[ "$status" -ne 0 ] || fail "a checkpoint of n = 17 was taken for n = 16"
grep -q "^error: checkpoint .* n = 17" "$work/refused.out" || grep -q "^error: checkpoint " "$work/refused.out" ||
    fail "no checkpoint error: $(cat "$work/refused.out")"
cmp -s "$ckpt" "$work/before" || fail "the refused checkpoint was changed"
grep "^error:" "$work/refused.out"
status=0
run 2 "$bin" count 17 --threads 1 --split-depth +1 --checkpoint "$ckpt" >"$work/refused.out" 2>&1 || status=$?
[ "$status" -ne 0 ] || fail "a checkpoint of the standard list was taken for the deeper split"

echo "== a checkpoint of nqueens count is resumed by nqueens-mpi (one format)"
"$cli" count 13 --checkpoint "$work/n13.ckpt" >/dev/null
run 2 "$bin" count 13 --threads 1 --checkpoint "$work/n13.ckpt" --stats 2>"$work/stats13" >"$work/out13"
[ "$(cat "$work/out13")" = 73712 ] || fail "resumed n = 13 from count's checkpoint: $(cat "$work/out13")"
grep -q "(2296 resumed)" "$work/stats13" || fail "not every task of count's checkpoint resumed: $(tail -1 "$work/stats13")"
# One that a node budget stopped inside its tasks: the job goes on from their pieces, to the
# same count and the same queens as a whole count.
whole16=$("$cli" count 16 --shard 1/1)
# (A budget is checked as a task's result comes in, when that thread has just begun its next
# task: a stop can leave no task in part, so stop again, further on, until one is.)
for _ in 1 2 3 4 5 6 7 8; do
    status=0
    NQUEENS_PIECE_ROWS=9 NQUEENS_NODE_LIMIT=12000000 "$cli" count 16 --checkpoint "$work/n16.ckpt" \
        >/dev/null 2>"$work/n16.err" || status=$?
    [ "$status" = 3 ] || fail "count 16 with a node budget: exit $status: $(cat "$work/n16.err")"
    [ "$(in_part "$work/n16.ckpt")" -gt 0 ] && break
done
[ "$(in_part "$work/n16.ckpt")" -gt 0 ] || fail "count 16 left no task in part: $(cat "$work/n16.err")"
json=$(NQUEENS_PIECE_ROWS=9 run 2 "$bin" count 16 --threads 1 --checkpoint "$work/n16.ckpt" --json)
[ "$(field subtotal <<<"$json")" = 14772512 ] || fail "count's checkpoint of n = 16 in part resumed to $json"
[ "$(field nodes <<<"$json")" = "$(field nodes <<<"$whole16")" ] || fail "count's checkpoint of n = 16 in part: $json, whole $whole16"
echo "checkpoints of nqueens count resumed, whole and in part ($(head -1 "$work/n16.err"))"
echo "== --device gpu (Mesa's software Vulkan driver): counts on 1 and 2 ranks"
for n in 8 11 13; do
    [ "$(run 1 "$bin" count "$n" --device gpu)" = "$(expected "$n" 2)" ] || fail "--device gpu n = $n on 1 rank"
done
# Two ranks share the one software adapter (with a warning): the schedule with device ranks.
[ "$(run 2 "$bin" count 13 --device gpu --unique 2>"$work/gpu2")" = "$(expected 13 3)" ] || fail "--device gpu n = 13 on 2 ranks"
grep -q "shares GPU 0" "$work/gpu2" || fail "no warning for two ranks on one GPU: $(cat "$work/gpu2")"
# A GPU checkpoint, resumed on CPU ranks.
rm -f "$work/gpu12.ckpt"
run 2 "$bin" count 12 --device gpu --checkpoint "$work/gpu12.ckpt" >/dev/null 2>&1
[ "$(run 2 "$bin" count 12 --threads 1 --checkpoint "$work/gpu12.ckpt" --stats 2>"$work/stats12")" = 14200 ] || fail "GPU checkpoint of n = 12 on CPU ranks"
grep -q "(1392 resumed)" "$work/stats12" || fail "the GPU checkpoint did not resume whole: $(tail -1 "$work/stats12")"
# No adapter: the job ends with the reason, never a CPU count.
status=0
VK_ICD_FILENAMES=/nonexistent.json VK_DRIVER_FILES=/nonexistent.json     run 2 -x VK_ICD_FILENAMES -x VK_DRIVER_FILES "$bin" count 10 --device gpu >"$work/nogpu.out" 2>&1 || status=$?
[ "$status" -ne 0 ] || fail "--device gpu with no adapter succeeded"
grep -q "no GPU adapter found" "$work/nogpu.out" || fail "no adapter error: $(cat "$work/nogpu.out")"
# The constellation kernel counts in one process only: refused, naming the default kernel.
status=0
NQUEENS_GPU_KERNEL=constellations run 1 -x NQUEENS_GPU_KERNEL "$bin" count 10 --device gpu >"$work/constellations.out" 2>&1 || status=$?
[ "$status" -ne 0 ] || fail "--device gpu with NQUEENS_GPU_KERNEL=constellations succeeded"
grep -q "NQUEENS_GPU_KERNEL=constellations counts whole-board totals in one process only, not across MPI ranks: unset it for the default kernel (subboards)" "$work/constellations.out" ||
    fail "NQUEENS_GPU_KERNEL=constellations not refused: $(cat "$work/constellations.out")"
echo "--device gpu: n = 8, 11, 13 on 1 rank, 13 on 2, a GPU checkpoint resumed on CPUs, no adapter refused, the constellation kernel refused"

echo "test-mpi: all passed"

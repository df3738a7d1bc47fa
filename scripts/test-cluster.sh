#!/usr/bin/env bash
# The cluster examples (examples/cluster/) as written, on this machine: shellcheck over every
# script (and the Kubernetes Job's shell line); the Job's shell line under `unshare -fp`,
# where it is process 1 as in a container, stopped with SIGTERM: nqueens must be process 1
# (the line's `exec`), save what it counted and exit 130; then each route end to end with
# stand-ins for kubectl, sbatch, srun and scontrol (scripts/cluster-standins/: they record
# their arguments and run the commands here, srun on the local mpirun), small boards, and
# time limits of a fraction of a second, so the Slurm scripts' resubmission and requeue run
# too. The Dockerfile is not built here (no image builder in CI). Needs root (unshare),
# OpenMPI, libclang, shellcheck and PyYAML: installed with apt-get when run as root. About
# a minute on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=scripts/debian-packages.sh
. scripts/debian-packages.sh
need_packages test-cluster "shellcheck, OpenMPI and libclang for nqueens-mpi, PyYAML for the kubectl stand-in" \
    shellcheck libopenmpi-dev openmpi-bin clang libclang-dev python3-yaml util-linux
[ "$(id -u)" -eq 0 ] || { echo "test-cluster: needs root (unshare -p)" >&2; exit 1; }

# shellcheck source=scripts/suite.sh
. scripts/suite.sh
if in_suite; then
    # scripts/test-all built both binaries once, with the suite's features.
    echo "test-cluster: nqueens and nqueens-mpi from the suite's one build"
else
    cargo build -p nqueens-cli --profile checked
    cargo build -p nqueens-mpi --features mpi --profile checked
fi

fail() { echo "test-cluster: FAIL: $*" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
examples=$PWD/examples/cluster

# nqueens and nqueens-mpi on PATH, with the stand-ins.
mkdir -p "$work/bin"
ln -s "$(suite_bin nqueens)" "$(suite_bin nqueens-mpi)" "$work/bin/"
ln -s "$PWD"/scripts/cluster-standins/* "$work/bin/"
export PATH=$work/bin:$PATH
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
export STANDIN_LOG=$work/standin.log STANDIN_QUEUE=$work/queue STANDIN_REQUEUED=$work/requeued
: >"$STANDIN_LOG"

# The Job's shell line, as the container runs it (`sh -c LINE`).
job_line() {
    python3 -c 'import sys, yaml; c = yaml.safe_load(open(sys.argv[1]))["spec"]["template"]["spec"]["containers"][0]; assert c["command"] == ["/bin/sh", "-c"]; print(c["args"][0])' \
        "$examples/shards-job.yaml"
}

echo "== shellcheck"
printf '#!/bin/sh\n%s\n' "$(job_line)" >"$work/job-line.sh"
shellcheck -x "$examples"/*.sbatch "$examples"/*.sh scripts/cluster-standins/* "$work/job-line.sh" scripts/test-cluster.sh
echo "shellcheck: clean"

echo "== the Kubernetes Job's line as process 1: SIGTERM reaches nqueens, which saves and exits 130"
mkdir -p "$work/k8s"
line=$(job_line | sed "s#/results#$work/k8s#g")
# Shard 1 of 4 of n = 18: some seconds on 2 cores, stopped long before its end.
N=18 K=4 JOB_COMPLETION_INDEX=0 unshare -fp --mount-proc sh -c "$line" 2>"$work/k8s.err" &
job=$!
ckpt=$work/k8s/n18-1.ckpt
records() { if [ -f "$1" ]; then tail -n +2 "$1" | awk 'NF && $2 !~ /:/' | grep -c ' ' || true; else echo 0; fi; }
until [ "$(records "$ckpt")" -gt 0 ]; do
    kill -0 "$job" 2>/dev/null || fail "the Job's line ended first: $(cat "$work/k8s.err")"
    sleep 0.1
done
pid1=$(pgrep -P "$job")
[ "$(cat "/proc/$pid1/comm")" = nqueens ] || fail "process 1 of the pod is $(cat "/proc/$pid1/comm"), not nqueens (no exec?)"
kill -TERM "$pid1"
status=0
timeout 60 tail --pid="$pid1" -f /dev/null || fail "nqueens did not stop on SIGTERM"
wait "$job" || status=$?
[ "$status" = 130 ] || fail "the pod's process exits $status, not 130: $(cat "$work/k8s.err")"
grep -q "^interrupted: [0-9]* of [0-9]* tasks saved in $ckpt" "$work/k8s.err" || fail "$(cat "$work/k8s.err")"
[ ! -e "$work/k8s/n18-1.json" ] || fail "a stopped shard left its result file"
grep "^interrupted" "$work/k8s.err"

echo "== shards-k8s.sh: the Job (stand-in kubectl: n = 12, 3 pods here), then the merge as written"
mkdir -p "$work/k8s-route"
out=$(STANDIN_RESULTS=$work/k8s-route STANDIN_N=12 STANDIN_K=3 "$examples/shards-k8s.sh" 2>"$work/k8s-route.err") ||
    fail "shards-k8s.sh: $(cat "$work/k8s-route.err")"
[ "$out" = 14200 ] || fail "the merge printed '$out', not 14200: $(cat "$work/k8s-route.err")"
echo "merged 3 pods' shards of n = 12: $out"

# Runs the stand-in sbatch's queue in order (jobs it submits join the queue), as Slurm would
# once each dependency is met: a script's array tasks one by one (STANDIN_ARRAY of them), a
# task that requeued itself again, a --wrap under `sh -c`; each job gets 2 tasks of
# STANDIN_CPUS CPUs (1 by default). At most 100 runs.
run_queue() {
    local done=0 runs=0 id kind what n i
    while [ "$done" -lt "$(wc -l <"$STANDIN_QUEUE")" ]; do
        done=$((done + 1))
        IFS=$'\t' read -r id _ kind what n < <(sed -n "${done}p" "$STANDIN_QUEUE")
        if [ "$kind" = wrap ]; then
            (cd "$1" && N=$n sh -c "$what") || fail "job $id ($what) failed"
            continue
        fi
        local tasks=(0)
        grep -q '^#SBATCH --array=' "$what" && mapfile -t tasks < <(seq 1 "${STANDIN_ARRAY:?}")
        for i in "${tasks[@]}"; do
            while :; do
                runs=$((runs + 1))
                [ "$runs" -le 100 ] || fail "more than 100 runs: the chain does not end"
                : >"$STANDIN_REQUEUED"
                (cd "$1" && N=$n SLURM_JOB_ID="$id$i" SLURM_ARRAY_TASK_ID=$i SLURM_ARRAY_TASK_COUNT=${STANDIN_ARRAY:-1} \
                    SLURM_NTASKS=2 SLURM_CPUS_PER_TASK=${STANDIN_CPUS:-1} bash "$what") >>"$1/job-$id.out" 2>>"$1/job-$id.err" ||
                    fail "job $id (task $i) failed: $(tail -3 "$1/job-$id.err")"
                [ -s "$STANDIN_REQUEUED" ] || break
            done
        done
    done
}

echo "== mpi.sbatch: a time limit of 0.5 s a link, resubmitted until n = 17 is counted"
mkdir -p "$work/mpi"
: >"$STANDIN_QUEUE"
(cd "$work/mpi" && N=17 LIMIT=0.5 sbatch "$examples/mpi.sbatch" >/dev/null)
# Two CPUs a rank: srun must be told so (SRUN_CPUS_PER_TASK), or it gives each rank one.
STANDIN_CPUS=2 LIMIT=0.5 run_queue "$work/mpi"
links=$(grep -c "^sbatch --dependency=afterany:" "$STANDIN_LOG" || true)
[ "$links" -gt 0 ] || fail "mpi.sbatch never resubmitted itself: $(cat "$STANDIN_LOG")"
grep -q '"subtotal":95815104' "$work/mpi/nqueens-17.json" || fail "mpi.sbatch: $(cat "$work/mpi/nqueens-17.json")"
! grep "^srun" "$STANDIN_LOG" | grep -qv "^srun cpus-per-task=2 ntasks=2 nqueens-mpi count 17" ||
    fail "srun did not give each rank its job's 2 CPUs: $(grep ^srun "$STANDIN_LOG")"
echo "n = 17 counted in $((links + 1)) links: 95815104"

# n = 17: a third of its work takes seconds of a core on any machine, so a 0.5 s limit always
# stops a run before its shard ends (with n = 16, a quiet fast machine finished a shard in one
# run and nothing was requeued).
echo "== submit-shards.sh: 3 array tasks of n = 17 (0.5 s a run, requeued), then the merge"
mkdir -p "$work/shards"
: >"$STANDIN_QUEUE"
(cd "$work/shards" && N=17 "$examples/submit-shards.sh" >/dev/null)
STANDIN_ARRAY=3 LIMIT=0.5 run_queue "$work/shards"
grep -q "^scontrol requeue" "$STANDIN_LOG" || fail "no array task requeued itself"
[ "$(cat "$work/shards/n17.txt")" = 95815104 ] || fail "the shards' merge: $(cat "$work/shards/n17.txt")"
echo "3 shards of n = 17, $(grep -c "^scontrol requeue" "$STANDIN_LOG") requeues, merged: 95815104"

echo "test-cluster: all passed"

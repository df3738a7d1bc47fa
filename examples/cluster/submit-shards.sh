#!/bin/sh
# The shard route on Slurm: the array of shards.sbatch, then `nqueens merge` over its files
# once every array task has ended well (afterok). The merge runs under `sh -c` (what --wrap
# writes), which expands the pattern; merge checks that every shard is there exactly once.
#
#   N=22 examples/cluster/submit-shards.sh          (run from the directory shards/ goes in)
set -eu
N=${N:-22}
export N
jid=$(sbatch --parsable "$(dirname "$0")/shards.sbatch")
sbatch --dependency="afterok:$jid" --wrap "exec nqueens merge shards/n$N-*.json >n$N.txt"

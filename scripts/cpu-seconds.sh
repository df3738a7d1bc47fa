# Sourced by .ci/run and scripts/test-all: `cpu_seconds` sets CPU_SECONDS to the CPU seconds
# (user + system) that this shell's finished children used so far, from bash's `times` (its
# second line: the children's user and system time, e.g. "1m2.500s 0m3.250s"), rounded down.
# CPU seconds hardly depend on what else the machine runs, unlike wall seconds; on a 2-core
# machine a run takes at least half its CPU seconds. A child counts once it has ended and been
# waited for. Call it as a command, never in $(...): a command substitution is a new process,
# whose children have used nothing yet.
cpu_seconds() {
    local file
    file=$(mktemp)
    times >"$file"
    CPU_SECONDS=$(awk 'NR == 2 {
        total = 0
        for (i = 1; i <= 2; i++) {
            split($i, part, "m")
            sub("s", "", part[2])
            total += part[1] * 60 + part[2]
        }
        printf "%d\n", total
    }' "$file")
    rm -f "$file"
}

#!/bin/bash
# Submit CAMPAIGN as an N-task Slurm job array (one shard a task, conebench-array.sbatch, into
# OUT-shard-i-of-N) and a job that merges the shards into OUT and writes OUT/report.md once every
# task has succeeded (conebench-merge.sbatch, --dependency=afterok). Prints "ARRAY_JOB MERGE_JOB".
# Options before CAMPAIGN go to both sbatch calls (--partition=P --account=A --time=T ...).
#   scripts/slurm/submit.sh [SBATCH_OPTION...] CAMPAIGN N OUT
# Progress: conebench status OUT-shard-*-of-N
set -euo pipefail
usage="usage: scripts/slurm/submit.sh [SBATCH_OPTION...] CAMPAIGN N OUT"
opts=()
while [ $# -gt 0 ] && [ "${1#-}" != "$1" ]; do opts+=("$1"); shift; done
[ $# = 3 ] || { echo "$usage" >&2; exit 2; }
campaign=$1 n=$2 out=$3
[[ "$n" =~ ^[1-9][0-9]*$ ]] || { echo "submit.sh: N: want a positive integer, got '$n'" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
array=$(sbatch --parsable ${opts[@]+"${opts[@]}"} --array="0-$((n - 1))" \
  "$here/conebench-array.sbatch" "$campaign" "$out")
array=${array%%;*}
merge=$(sbatch --parsable ${opts[@]+"${opts[@]}"} --dependency="afterok:$array" \
  --kill-on-invalid-dep=yes "$here/conebench-merge.sbatch" "$n" "$out")
echo "${array} ${merge%%;*}"

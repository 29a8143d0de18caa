#!/usr/bin/env bash
# The worked example of docs/cluster.md: peaceable 10's refutation "m >= 15?" as a Slurm array
# of 8 parts on a one-node cluster (deploy/local-slurm.sh), against the same jobs in one
# `quandary batch` and the question in one process. Needs slurm-wlm and munge, a release build.
# Output: bench/results/cluster/slurm-peaceable-10-2026-11-29.txt.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
Q=$ROOT/target/release/quandary
D=/tmp/worked; rm -rf $D; mkdir -p $D; cd $D
$ROOT/deploy/local-slurm.sh start $D/cluster > /dev/null
export SLURM_CONF=$D/cluster/slurm.conf PATH=$PATH:/usr/sbin
echo '$ quandary jobs -o p10.jsonl chess peaceable 10 --at-least 15 --part 1..8/8'
$Q jobs -o p10.jsonl chess peaceable 10 --at-least 15 --part 1..8/8 2>&1
echo '$ JOBS=p10.jsonl sbatch --array=0-7 --cpus-per-task=1 deploy/slurm-array.sh'
s=$(date +%s.%N)
id=$(JOBS=p10.jsonl QUANDARY=$Q sbatch --parsable --array=0-7 --cpus-per-task=1 $ROOT/deploy/slurm-array.sh)
echo "Submitted batch job $id"
sleep 5; echo '$ squeue'; squeue
while [ -n "$(squeue -h -j $id)" ]; do sleep 0.3; done
e=$(date +%s.%N)
echo "# wall clock of the array: $(echo "$e - $s" | bc) s"
echo '$ scontrol show job '"$id"' | grep -E "JobId|JobState|RunTime"  (no sacct: no accounting database)'
scontrol show job $id | grep -oE "(JobId|ArrayTaskId|JobState|RunTime)=[^ ]+" | paste - - - -
echo '$ ls p10.results-*-of-8.jsonl | xargs quandary merge --jobs p10.jsonl'
ls p10.results-*-of-8.jsonl | xargs $Q merge --jobs p10.jsonl
$ROOT/deploy/local-slurm.sh stop $D/cluster
echo '$ quandary batch p10.jsonl --jobs 2 --out one.jsonl   (the same jobs, one machine, no Slurm)'
s=$(date +%s.%N); $Q batch p10.jsonl --jobs 2 --out one.jsonl 2>/dev/null; e=$(date +%s.%N)
echo "# wall clock: $(echo "$e - $s" | bc) s"
$Q merge one.jsonl --jobs p10.jsonl
echo '$ quandary chess peaceable 10 --at-least 15   (one process, its own two threads)'
s=$(date +%s.%N); $Q chess peaceable 10 --at-least 15 | head -1; e=$(date +%s.%N)
echo "# wall clock: $(echo "$e - $s" | bc) s"

#!/usr/bin/env bash
# GNU parallel running one quandary job file as SHARDS batches, on this machine or (with
# SSHLOGINS, a file of ssh logins, and a shared file system) on several, then merging.
#
#   quandary jobs --ascending --time-limit 600 -o census.jsonl gunport optimum 1..20 1..20
#   JOBS=census.jsonl SHARDS=8 deploy/parallel.sh > census.txt
#
# --joblog and --resume-failed make the whole run resumable: finished shards are not run
# again, and a shard that stopped (or left a job unanswered) runs again and resumes its own
# results file, so only the jobs without a result are redone. (--will-cite: docs/cluster.md
# cites GNU parallel, as its author asks.)
set -euo pipefail
JOBS=${JOBS:?give JOBS=file.jsonl}
SHARDS=${SHARDS:-4}
QUANDARY=${QUANDARY:-quandary}
stem=${JOBS%.jsonl}
remote=()
if [ -n "${SSHLOGINS:-}" ]; then
  remote=(--sshloginfile "$SSHLOGINS" --workdir "$PWD")
fi
# parallel's exit status counts shards with an unanswered job: merge says which.
parallel --will-cite --joblog "$stem.joblog" --resume-failed "${remote[@]}" \
  "$QUANDARY" batch "$JOBS" --shard {}/"$SHARDS" --jobs 1 ::: $(seq 0 $((SHARDS - 1))) || true
"$QUANDARY" merge --jobs "$JOBS" "$stem".results-*-of-"$SHARDS".jsonl "$@"

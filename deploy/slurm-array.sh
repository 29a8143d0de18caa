#!/usr/bin/env bash
# A Slurm job array running one quandary job file: every array task runs one shard of it.
#
#   quandary jobs --ascending --time-limit 600 -o census.jsonl gunport optimum 1..20 1..20
#   JOBS=census.jsonl sbatch deploy/slurm-array.sh
#   quandary merge census.results-*-of-16.jsonl --jobs census.jsonl --csv > census.csv
#
# `quandary batch` reads its shard from SLURM_ARRAY_TASK_ID (less SLURM_ARRAY_TASK_MIN, over
# SLURM_ARRAY_TASK_STEP) and SLURM_ARRAY_TASK_COUNT, and writes JOBS.results-I-of-N.jsonl.
# Resubmitting the same array resumes: each task skips the jobs its results file holds.
#SBATCH --job-name=quandary
#SBATCH --array=0-15
#SBATCH --cpus-per-task=2
#SBATCH --mem-per-cpu=4G
#SBATCH --time=04:00:00
#SBATCH --output=quandary-%A_%a.log
set -euo pipefail
JOBS=${JOBS:-jobs.jsonl}
QUANDARY=${QUANDARY:-quandary}
# As many jobs at once as the cores Slurm gave this task; the memory limit is shared out.
exec "$QUANDARY" batch "$JOBS" --jobs "${SLURM_CPUS_PER_TASK:-1}"

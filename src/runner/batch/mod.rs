//! Many runs as files: a job file (one command line of quandary per JSON line), the results
//! file a batch appends to (one typed line per job), and merging results into answers, cubes
//! combined after checking that they cover the space. What runs the jobs (child processes,
//! signals, locks, a progress bar) is the command line's (`quandary batch`); what is here
//! reads and writes the formats and decides what they answer, for any front end.

pub mod jobs;
pub mod merge;
pub mod results;

pub use jobs::{expand, fingerprint, read_job, read_jobs, shard, Job, JobFile, Shard};
pub use merge::{merge, question, read_results, Merged};
pub use results::{answered, result_lines, status_of, Output, ResultLine, ResultLines};

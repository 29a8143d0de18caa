//! Tantrix's own verb: `check`, a solution file against the rules.

use super::{Call, Kind, Outputs, OwnVerb, Param};
use crate::error::Result;
use crate::input::Files;
use crate::puzzles::tantrix;
use crate::runner::report::Report;
use crate::solve::search::Status;

pub(super) static VERBS: &[OwnVerb] = &[OwnVerb {
    name: "check",
    aliases: &[],
    about: "Check a solution file (cells with tile@turns) against the rules; exit status 4 if it breaks them",
    params: &[
        Param::new("solution", Kind::Text, "Solution file: `q,r tile@turns` per line")
            .positional(),
        Param::new(
            "challenge",
            Kind::Whole,
            "The challenge number (default: the number of cells)",
        )
        .short('n'),
        Param::new(
            "colour",
            Kind::Text,
            "Override the designated colour (red, blue, yellow)",
        ),
    ],
    options: false,
    outputs: Outputs {
        json: true,
        picture: false,
        time_limit: false,
        file: false,
        proof: false,
    },
    run: |call: Call<'_>| {
        let challenge = match call.args.whole("challenge") {
            None => None,
            Some(n) => Some(usize::try_from(n).map_err(|_| {
                crate::error::Error::input(format!("--challenge {n}: not a challenge number"))
            })?),
        };
        check(
            &call.args.needed("solution")?,
            challenge,
            call.args.text("colour"),
            call.files,
        )
    },
}];

/// `tantrix check`: status solved if the file is a solution, rejected (exit status 4) if it
/// breaks the rules.
fn check(
    path: &str,
    challenge: Option<usize>,
    colour: Option<String>,
    files: Files,
) -> Result<Report> {
    let o = tantrix::puzzle::Options {
        challenge,
        colour,
        ..Default::default()
    };
    let started = std::time::Instant::now();
    let (ch, result) = tantrix::puzzle::check(path, &o, files)?;
    let status = if result.is_ok() {
        Status::Solved
    } else {
        Status::Rejected
    };
    let mut r = Report::new("tantrix", "check", path.to_string(), status);
    r.stats.method = "independent check".into();
    r.stats.seconds = started.elapsed().as_secs_f64();
    r.text = match &result {
        Ok(len) => format!(
            "{path}: a solution of challenge {} (one {} loop of {len} tiles)",
            ch.n,
            ch.colour.name()
        ),
        Err(why) => format!("{path}: not a solution: {why}"),
    };
    r.solution =
        Some(serde_json::json!({"valid": result.is_ok(), "reason": result.as_ref().err()}));
    Ok(r)
}

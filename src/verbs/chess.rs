//! Chess's own verb: `peaceable`, the largest m such that m white and m black pieces
//! coexist on an n×n board with no piece attacking one of the other colour.

use super::{Call, Kind, Outputs, OwnVerb, Param};
use crate::error::{Error, Result};
use crate::puzzles::chess::{self, Piece};
use crate::puzzles::Query;
use crate::runner::report::{status_word, unknown_word, Report};
use crate::runner::{bounded, drive, note_what_stopped};
use crate::solve::limits::Limits;
use crate::solve::search::Status;

pub(super) static VERBS: &[OwnVerb] = &[OwnVerb {
    name: "peaceable",
    aliases: &[],
    about: "Peaceable armies: the largest m such that m white and m black pieces coexist on an n×n board with no piece attacking one of the other colour",
    params: &[
        Param::new("n", Kind::Text, "The side of the board (1 to 32)").positional(),
        Param::new("type", Kind::Choice(&["Q", "R", "B", "N", "K"]), "The piece type")
            .default("Q"),
        Param::new(
            "model",
            Kind::Choice(&["lines", "pairwise"]),
            "How no piece attacks one of the other colour: `lines` (each row, column and diagonal owned by one colour; the sliders' model) or `pairwise` (a row per attacking pair; the knight's and king's always)",
        )
        .default("lines"),
    ],
    options: false,
    outputs: Outputs {
        json: true,
        picture: true,
        time_limit: true,
        file: false,
    },
    run: |call: Call<'_>| {
        let piece: Piece = serde_json::from_value(serde_json::Value::from(
            call.args.text("type").unwrap_or_else(|| "Q".into()),
        ))
        .map_err(|e| Error::input(format!("--type: {e}")))?;
        let how: chess::PeaceModel = serde_json::from_value(serde_json::Value::from(
            call.args.text("model").unwrap_or_else(|| "lines".into()),
        ))
        .map_err(|e| Error::input(format!("--model: {e}")))?;
        peaceable(&call.args.needed("n")?, piece, how, call.limits)
    },
}];

/// Peaceable armies, through the runner's optimum.
fn peaceable(word: &str, piece: Piece, how: chess::PeaceModel, limits: &Limits) -> Result<Report> {
    let n: usize = word
        .trim()
        .parse()
        .ok()
        .filter(|n| (1..=32).contains(n))
        .ok_or_else(|| {
            Error::input(format!(
                "board side '{word}' is not a whole number from 1 to 32"
            ))
        })?;
    let mut o = bounded(limits, "the peaceable-armies model", || {
        drive(
            chess::peaceable(n, piece, how),
            Query::Optimum,
            limits,
            false,
        )
    })?;
    note_what_stopped(&mut o, limits);
    let instance = format!("peaceable {} armies on {n}×{n}", piece.letter());
    let mut r = Report::new("chess", "peaceable", instance.clone(), o.status);
    // A run stopped says what stopped it, in the headline and in `stats.stopped_by`, as the
    // generic verbs do (it said neither).
    let status = match o.status {
        Status::Unknown => unknown_word(o.stats.stopped_by.as_deref()),
        other => status_word(other).to_string(),
    };
    if let Some(s) = o.solutions.first() {
        chess::verify_peaceable(piece, s)
            .map_err(|why| Error::Internal(format!("peaceable armies fail the check: {why}")))?;
        r.solution = serde_json::to_value(s).ok();
        r.svg = Some(chess::peaceable_svg(piece, s));
        let m = o.objective.unwrap_or(0);
        let m = match o.status {
            Status::Optimal => format!("m = {m}"),
            _ => format!("m = {m} found, not proved the largest"),
        };
        r.text = format!("{instance}: {status}, {m}\n\n{}\n", s.rows.join("\n"));
    } else {
        r.text = format!("{instance}: {status}\n");
    }
    r.facts = o.facts;
    r.stats.seconds = limits.seconds();
    Ok(r)
}

//! What a run writes besides its text: the report printed (text or JSON), its picture, an
//! explanation's step pictures, the solution's file, each path checked before the work.

use clap::ArgMatches;
use quandary::runner::registry::Report;
use quandary::Error;

/// What to do with a report besides printing it.
#[derive(Default)]
pub struct Output {
    pub json: bool,
    pub svg: Option<String>,
    /// `--svg` names a directory that takes one picture a step (`explain`).
    pub svg_dir: bool,
    pub out: Option<(String, Option<String>)>,
}

impl Output {
    pub fn from(m: &ArgMatches) -> Output {
        let get = |k: &str| m.try_get_one::<String>(k).ok().flatten().cloned();
        Output {
            json: m
                .try_get_one::<bool>("json")
                .ok()
                .flatten()
                .copied()
                .unwrap_or(false),
            svg: get("svg"),
            svg_dir: false,
            out: None,
        }
    }
}

/// Writes a file the user named, never through a symbolic link ([`quandary::output`]).
pub fn write_file(path: &str, contents: &str) -> Result<(), Error> {
    quandary::output::write(std::path::Path::new(path), contents.as_bytes()).map_err(|source| {
        Error::Io {
            path: path.to_string(),
            source,
        }
    })
}

/// Prints a report (text, or one JSON object), writes its files, and returns the exit status.
pub fn emit(report: &Report, output: &Output) -> Result<i32, Error> {
    match &output.svg {
        Some(dir) if output.svg_dir && report.facts.explanation.is_some() => {
            for (i, picture) in report.step_svgs().iter().enumerate() {
                write_file(
                    &format!("{dir}/{}", StepPicture::Step(i + 1).name()),
                    picture,
                )?;
            }
            if let Some(svg) = &report.svg {
                write_file(&format!("{dir}/{}", StepPicture::Solution.name()), svg)?;
            }
        }
        _ => {}
    }
    match (&output.svg, &report.svg) {
        (Some(_), _) if output.svg_dir => {}
        (Some(path), Some(svg)) if path == "-" => {
            outln!("{}", svg);
            return Ok(report.exit_code());
        }
        (Some(path), Some(svg)) => write_file(path, svg)?,
        // Nothing to draw (no solution found, or a count by a method that keeps none): say so
        // rather than ignore the flag.
        (Some(path), None) => eprintln!(
            "quandary: note: --svg {path}: this answer has no picture (no solution to draw); nothing written"
        ),
        _ => {}
    }
    if let Some((path, Some(file))) = &output.out {
        write_file(path, file)?;
    }
    if output.json {
        outln!(
            "{}",
            serde_json::to_string(report).expect("reports serialise")
        );
    } else {
        // A verb that printed its lines as it went (a sweep as CSV) may leave no text.
        if !report.text.is_empty() {
            outln!("{}", report.text.trim_end_matches('\n'));
        }
        if !report.stats.method.is_empty() {
            outln!("({} in {:.3} s)", report.stats.method, report.stats.seconds);
        }
        if let Some(mip) = &report.stats.mip {
            outln!("({})", mip_line(mip));
        }
    }
    Ok(report.exit_code())
}

/// Checks before any work that the files a command will write can be written: an unwritable
/// path is bad input, found at once rather than after a long search. `--svg -` is standard
/// output, which cannot go with `--json`.
pub fn check_outputs(output: &Output, out: Option<&String>) -> Result<(), Error> {
    if output.json && output.svg.as_deref() == Some("-") {
        return Err(Error::input(
            "--svg - writes the picture to standard output, which --json needs for its object; give --svg FILE",
        ));
    }
    if output.svg_dir {
        if let Some(dir) = &output.svg {
            // explain: a directory, made now so that a bad path is found before the work.
            if dir == "-" {
                return Err(Error::input(
                    "explain --svg DIR writes one picture a step into DIR; '-' is not a directory",
                ));
            }
            std::fs::create_dir_all(dir).map_err(|source| Error::Io {
                path: dir.clone(),
                source,
            })?;
            earlier_pictures(dir)?;
        }
        return match out {
            Some(path) => check_outputs(
                &Output {
                    svg: None,
                    svg_dir: false,
                    ..Default::default()
                },
                Some(path),
            ),
            None => Ok(()),
        };
    }
    let paths: Vec<&String> = output.svg.iter().chain(out).collect();
    check_paths(&paths, ("--svg", "-o"))
}

/// Checks, before the work, that every file to be written can be (not a directory, not a
/// link, in a directory that exists) and that no two of them name the same file (the second
/// write would silently replace the first). `flags` names the two options for the message.
pub fn check_paths(paths: &[&String], flags: (&str, &str)) -> Result<(), Error> {
    let paths: Vec<&String> = paths.iter().copied().filter(|p| *p != "-").collect();
    for path in &paths {
        quandary::output::check_writable(std::path::Path::new(path.as_str())).map_err(
            |source| Error::Io {
                path: path.to_string(),
                source,
            },
        )?;
    }
    if let [a, b] = paths[..] {
        if quandary::output::same_file(std::path::Path::new(a), std::path::Path::new(b)) {
            return Err(Error::input(format!(
                "{} and {} name the same file ({a}): the second would replace the first; give two files",
                flags.0, flags.1
            )));
        }
    }
    Ok(())
}

/// The files `explain --svg DIR` writes: one picture a step, and the solution.
#[derive(Debug, PartialEq)]
enum StepPicture {
    /// Step k, counted from 1.
    Step(usize),
    Solution,
}

impl StepPicture {
    const PREFIX: &'static str = "step-";
    const SOLUTION: &'static str = "solution.svg";

    fn name(&self) -> String {
        match self {
            StepPicture::Step(k) => format!("{}{k:03}.svg", Self::PREFIX),
            StepPicture::Solution => Self::SOLUTION.to_string(),
        }
    }

    /// The picture a file name is, if it is one of these.
    fn read(name: &str) -> Option<StepPicture> {
        if name == Self::SOLUTION {
            return Some(StepPicture::Solution);
        }
        let digits = name.strip_prefix(Self::PREFIX)?.strip_suffix(".svg")?;
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        digits.parse().ok().map(StepPicture::Step)
    }
}

/// Refuses an `explain --svg DIR` that holds pictures of an earlier explanation: the new
/// steps would be mixed with the old ones past their count.
fn earlier_pictures(dir: &str) -> Result<(), Error> {
    let entries = std::fs::read_dir(dir).map_err(|source| Error::Io {
        path: dir.to_string(),
        source,
    })?;
    let ours = |name: &str| StepPicture::read(name).is_some();
    match entries
        .flatten()
        .find(|e| ours(&e.file_name().to_string_lossy()))
    {
        Some(e) => Err(Error::input(format!(
            "--svg {dir}: it holds pictures of an earlier explanation ({}); give a new or empty directory, or remove them",
            e.file_name().to_string_lossy()
        ))),
        None => Ok(()),
    }
}

/// Where `--out PATH` sends a report's file (a solution in the puzzle's own format, a new or
/// converted puzzle): the same for every verb. The file's text in the report's text becomes a
/// line naming the path. A report with an answer but no file format is an error (use --json
/// or --svg); one with no answer to write is a note, and nothing is written.
pub fn out_file(report: &mut Report, path: &str) -> Result<(String, Option<String>), Error> {
    match report.file.clone() {
        Some(file) => {
            report.text = report
                .text
                .replacen(&file, &format!("(written to {path})\n"), 1);
            Ok((path.to_string(), Some(file)))
        }
        None if report.solution.is_some() => Err(Error::input(format!(
            "--out {path}: {} {} writes no file (no file format for this answer); use --json or --svg",
            report.puzzle, report.verb
        ))),
        None => {
            eprintln!("quandary: note: --out {path}: no answer to write; nothing written");
            Ok((path.to_string(), None))
        }
    }
}

/// What HiGHS reported, in one line.
fn mip_line(m: &quandary::solve::MipStats) -> String {
    let mut parts = vec![format!(
        "HiGHS: {} solve{}, {} nodes, {} simplex iterations",
        m.solves,
        if m.solves == 1 { "" } else { "s" },
        m.nodes,
        m.simplex_iterations
    )];
    if let Some(lp) = m.lp_bound {
        parts.push(format!("LP relaxation {lp}"));
    }
    if let Some(b) = m.best_bound {
        parts.push(format!("best bound {b}"));
    }
    if let Some(g) = m.gap {
        parts.push(format!("gap {:.2}%", 100.0 * g));
    }
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::StepPicture;

    /// The names `explain --svg DIR` writes are the names its check for earlier pictures
    /// reads; other files in the directory are not taken for them.
    #[test]
    fn step_picture_names_read_back() {
        for p in [
            StepPicture::Step(1),
            StepPicture::Step(93),
            StepPicture::Step(1234),
            StepPicture::Solution,
        ] {
            assert_eq!(StepPicture::read(&p.name()), Some(p));
        }
        for other in [
            "step-.svg",
            "step-1a.svg",
            "step-001.png",
            "notes.svg",
            "solution.txt",
        ] {
            assert_eq!(StepPicture::read(other), None, "{other}");
        }
    }
}

//! What the page is offered and how a request's flags are read: the puzzles of the registry
//! with their verbs and flags (generic and own), and the command line's parser over a
//! request's fields.

use quandary::runner::registry::{self, Entry, OptionsIn};
use serde_json::{json, Value};

/// Every puzzle of the registry: what the page needs to offer it.
pub(super) fn puzzles() -> Value {
    let list: Vec<Value> = registry::PUZZLES
        .iter()
        .map(|e| {
            let mut verbs: Vec<String> = e.verbs().iter().map(|v| v.to_string()).collect();
            let own = e.own_verbs(clap::Command::new(e.name()));
            verbs.extend(own.get_subcommands().map(|c| c.get_name().to_string()));
            // An own verb's flags, for the page to offer as fields (the page's own fields,
            // the picture, the limit, the JSON, are left out).
            let own_flags: serde_json::Map<String, Value> = own
                .get_subcommands()
                .map(|c| {
                    let kept: Vec<Value> = flags_of(c)
                        .into_iter()
                        .filter(|f| {
                            !["json", "svg", "time-limit", "out"]
                                .contains(&f["flag"].as_str().unwrap_or(""))
                        })
                        .collect();
                    (c.get_name().to_string(), json!(kept))
                })
                .collect();
            json!({"name": e.name(), "title": e.title(), "about": e.about(),
                   "input": e.input(), "example": e.example(), "verbs": verbs,
                   "options": flags(*e), "own": own_flags})
        })
        .collect();
    json!({ "puzzles": list })
}

/// A puzzle's options as the command line's flags, for the page to offer: name, help, the
/// values a choice takes, whether it is an on/off flag, its default.
fn flags(e: &dyn Entry) -> Vec<Value> {
    flags_of(&e.options_args(clap::Command::new(e.name())))
}

/// A command's flags as the page offers them: name, values, switch or not, default, help,
/// and whether it is required.
fn flags_of(cmd: &clap::Command) -> Vec<Value> {
    cmd.get_arguments()
        .filter_map(|a| {
            let long = a.get_long()?;
            let values: Vec<String> = a
                .get_possible_values()
                .iter()
                .filter(|v| !v.is_hide_set())
                .map(|v| v.get_name().to_string())
                .collect();
            let flag = matches!(a.get_action(), clap::ArgAction::SetTrue);
            let default = a
                .get_default_values()
                .first()
                .map(|d| d.to_string_lossy().into_owned());
            let help = a.get_help().map(|h| h.to_string()).unwrap_or_default();
            Some(json!({"flag": long, "help": help, "values": values,
                        "switch": flag, "default": default, "required": a.is_required_set()}))
        })
        .collect()
}

/// The options of a request: `"args"`, the command line's flags (`["--formulation", "cell"]`),
/// read by the same parser as the command line; or `"options"`, a JSON object.
pub(super) fn options_in<'a>(
    e: &dyn Entry,
    v: &'a Value,
    parsed: &'a mut Option<clap::ArgMatches>,
) -> Result<OptionsIn<'a>, String> {
    match &v["args"] {
        Value::Null => {}
        Value::Array(a) => {
            let args: Vec<&str> = a
                .iter()
                .map(|w| w.as_str().ok_or("\"args\" must be a list of strings"))
                .collect::<Result<_, _>>()?;
            let cmd = e
                .options_args(clap::Command::new(e.name()))
                .no_binary_name(true);
            let m = cmd
                .try_get_matches_from(args)
                .map_err(|err| err.render().to_string())?;
            return Ok(OptionsIn::Matches(parsed.insert(m)));
        }
        _ => return Err("\"args\" must be a list of strings".into()),
    }
    match &v["options"] {
        Value::Null => Ok(OptionsIn::Default),
        o @ Value::Object(_) => Ok(OptionsIn::Json(o)),
        _ => Err("\"options\" must be an object".into()),
    }
}

/// The matches of an own verb (e.g. Battleship's `generate`): the request's fields as the
/// command line's flags ([`quandary::runner::own::words_of_json`]), read by the same parser.
pub(super) fn own_verb_matches(
    entry: &dyn Entry,
    verb: &str,
    v: &Value,
    words: &[String],
) -> Result<clap::ArgMatches, String> {
    let cmd = entry
        .own_verbs(clap::Command::new(entry.name()))
        .no_binary_name(true);
    if cmd.find_subcommand(verb).is_none() {
        return Err(format!("{} has no verb '{verb}'", entry.name()));
    }
    let argv = quandary::runner::own::words_of_json(v, words).map_err(|e| e.to_string())?;
    cmd.try_get_matches_from(std::iter::once(verb.to_string()).chain(argv))
        .map_err(|e| e.render().to_string())
}

//! What the page is offered and how a request's flags are read: the puzzles of the registry
//! with their verbs and flags (generic and own), and the command line's parser over a
//! request's fields.

use quandary::runner::registry::{self, Entry, OptionsIn};
use quandary::verbs::{Args, Kind, OwnVerb, Param};
use serde_json::{json, Value};

/// Every puzzle of the registry: what the page needs to offer it.
pub(super) fn puzzles() -> Value {
    let list: Vec<Value> = registry::PUZZLES
        .iter()
        .map(|e| {
            let mut verbs: Vec<String> = e.verbs().iter().map(|v| v.to_string()).collect();
            let own = quandary::verbs::of(e.name());
            verbs.extend(own.iter().map(|v| v.name.to_string()));
            // An own verb's parameters given by name (and the puzzle's options, where it
            // takes them), for the page to offer as fields.
            let own_flags: serde_json::Map<String, Value> = own
                .iter()
                .map(|v| {
                    let mut fields: Vec<Value> = v
                        .params
                        .iter()
                        .filter(|p| !p.positional)
                        .map(param_field)
                        .collect();
                    if v.options {
                        fields.extend(flags(*e));
                    }
                    (v.name.to_string(), json!(fields))
                })
                .collect();
            // Whether the server keeps a board's engines between a user's edits (`/api/bench`).
            let session = quandary::verbs::SESSIONS
                .iter()
                .any(|(n, _)| *n == e.name());
            // The puzzle files shipped with it, which a request may name.
            let folder = format!("data/{}/", e.name());
            let shipped: Vec<&str> = quandary::input::SHIPPED
                .iter()
                .map(|(p, _)| *p)
                .filter(|p| p.starts_with(&folder))
                .collect();
            json!({"name": e.name(), "title": e.title(), "about": e.about(),
                   "input": e.input(), "example": e.example(), "verbs": verbs,
                   "options": flags(*e), "own": own_flags, "session": session,
                   "shipped": shipped})
        })
        .collect();
    json!({ "puzzles": list })
}

/// An own verb's parameter as the page offers it (the shape of [`flags_of`]'s).
fn param_field(p: &Param) -> Value {
    let values: &[&str] = match p.kind {
        Kind::Choice(words) => words,
        _ => &[],
    };
    json!({"flag": p.name, "help": p.help, "values": values,
           "switch": p.kind == Kind::Switch, "default": p.default,
           "required": p.required && p.default.is_none()})
}

/// A puzzle's options as the command line's flags, for the page to offer: name, help, the
/// values a choice takes, whether it is an on/off flag, its default.
fn flags(e: &dyn Entry) -> Vec<Value> {
    let mut all = flags_of(&e.options_args(clap::Command::new(e.name())));
    // An option only some questions read says which ([`Entry::verb_options`]): the page
    // offers and sends it with those only.
    for f in &mut all {
        let id = f["flag"].as_str().unwrap_or_default().replace('-', "_");
        if let Some((_, verbs)) = e.verb_options().iter().find(|(o, _)| *o == id) {
            f["verbs"] = json!(verbs);
        }
    }
    all
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

/// The fields of a server request that are the request's own (what to run, on what, within
/// what), not an own verb's parameters; a generic verb takes no other field.
pub(super) const REQUEST_FIELDS: &[&str] = &[
    "puzzle",
    "verb",
    "words",
    "text",
    "args",
    "options",
    "id",
    "time_limit",
    "at_least",
    "cap",
];

/// The arguments of an own verb (e.g. Battleship's `generate`): the request's other fields
/// by name, its words by position, checked by the verb's table ([`Args::read`]). For a verb
/// that takes the puzzle's options, the fields it does not know and the request's
/// `"options"` go to `options`, read there as the puzzle's options are.
pub(super) fn own_args(
    entry: &dyn Entry,
    verb: &OwnVerb,
    v: &Value,
    words: &[String],
    options: &mut Value,
) -> Result<Args, String> {
    let Some(fields) = v.as_object() else {
        return Err("the request must be a JSON object".into());
    };
    if v["args"].as_array().is_some_and(|a| !a.is_empty()) {
        return Err(format!(
            "{} {} takes its options as fields of the request (\"rows\": 10), not as \"args\"",
            entry.name(),
            verb.name
        ));
    }
    let given: serde_json::Map<String, Value> = fields
        .iter()
        .filter(|(k, _)| !REQUEST_FIELDS.contains(&k.as_str()))
        .map(|(k, x)| (k.clone(), x.clone()))
        .collect();
    let rest = match &v["options"] {
        Value::Object(o) if verb.options => o.clone(),
        Value::Null => serde_json::Map::new(),
        Value::Object(o) if o.is_empty() => serde_json::Map::new(),
        _ => {
            return Err(format!(
                "{} {} takes no \"options\"",
                entry.name(),
                verb.name
            ))
        }
    };
    let (args, rest) = quandary::verbs::prepare(entry.name(), verb, given, words, rest)
        .map_err(|e| e.to_string())?;
    *options = rest;
    Ok(args)
}

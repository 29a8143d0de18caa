//! What the page is offered and how a request's flags are read: the puzzles of the registry
//! with their verbs and flags (generic and own), and the command line's parser over a
//! request's fields.

use quandary::runner::registry::{self, Entry};
use quandary::verbs::{Kind, Param};
use serde_json::{json, Value};

/// Every puzzle of the registry: what the page needs to offer it.
pub(super) fn puzzles() -> Value {
    let list: Vec<Value> = registry::PUZZLES
        .iter()
        .map(|e| {
            let verbs = quandary::request::verbs(*e);
            let own = quandary::verbs::of(e.name());
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
            let session = quandary::verbs::kept().contains(&e.name());
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

/// The fields of a server request that are the request's own (what to run, on what, within
/// what), not an own verb's parameters; a generic verb takes no other field.
pub(super) const REQUEST_FIELDS: &[&str] = &[
    "puzzle",
    "verb",
    "words",
    "text",
    "options",
    "id",
    "time_limit",
    "at_least",
    "cap",
];

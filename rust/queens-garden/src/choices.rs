//! Moves as choices a person makes one at a time: `indigo play`, the web app's server and its
//! offline page complete moves alike from these. A person names a part (`take 2`, `tile bl3
//! f0`, a click on an attribute) and is asked for the rest: [`candidates`] narrows the legal
//! moves to what a partial move allows, [`next_question`] says what to ask next, and
//! [`move_choices`] groups a legal-move list for clicks. Every answer is a selection from the
//! legal moves given; no rule is computed here.
//!
//! A `pass` with discards is never in the legal-move list (`pass` appears once, bare), so
//! [`candidates`] matches the bare `pass` for any `pass ...`.

use serde_json::{Map, Value, json};

use crate::Kind;

/// Tokens of each action's fixed head (`take ATTR`, `tile KIND CELL`, ...); the tokens after
/// it (copy choices, discards) are in free order.
fn head_length(verb: &str, tokens: usize) -> usize {
    match verb {
        "take" | "buy" => 2,
        "tile" | "exp" => 3,
        "pass" => 1,
        _ => tokens,
    }
    .min(tokens)
}

/// A move's fixed head tokens and its free tokens: `take 2 ye2@0` is `(["take", "2"],
/// ["ye2@0"])`.
#[must_use]
pub fn split_move(text: &str) -> (Vec<&str>, Vec<&str>) {
    let tokens: Vec<&str> = text.split(' ').collect();
    let size = head_length(tokens[0], tokens.len());
    (tokens[..size].to_vec(), tokens[size..].to_vec())
}

/// Whether `have` holds every token of `want`, as a multiset.
fn holds(have: &[&str], want: &[&str]) -> bool {
    let mut left = have.to_vec();
    want.iter().all(|w| match left.iter().position(|h| h == w) {
        Some(at) => {
            left.swap_remove(at);
            true
        }
        None => false,
    })
}

/// The indices of the legal moves (notation, as listed) that a partial move `text` may mean,
/// in order. The head's tokens must match in order, the last typed head token as a prefix
/// (`tile bl` keeps every blue tile placement, `take 2` only the takes of birds); the typed
/// free tokens (copy choices, discards) must all be in the move, as a multiset. Every `pass
/// ...` matches the listed `pass`.
#[must_use]
pub fn candidates<S: AsRef<str>>(legal: &[S], text: &str) -> Vec<usize> {
    let typed: Vec<&str> = text.split_whitespace().collect();
    if typed.is_empty() {
        return (0..legal.len()).collect();
    }
    let mut out = Vec::new();
    for (index, mv) in legal.iter().enumerate() {
        let (head, rest) = split_move(mv.as_ref());
        if head[0] == "pass" && typed[0] == "pass" {
            out.push(index);
            continue;
        }
        let cut = typed.len().min(head.len());
        let (typed_head, typed_rest) = typed.split_at(cut);
        // The last typed token may be cut short while the head is still being typed.
        let prefix_at = if typed_rest.is_empty() {
            Some(cut - 1)
        } else {
            None
        };
        let heads_match = typed_head.iter().zip(&head).enumerate().all(|(i, (t, h))| {
            if Some(i) == prefix_at {
                h.starts_with(t)
            } else {
                h == t
            }
        });
        if heads_match && holds(&rest, typed_rest) {
            out.push(index);
        }
    }
    out
}

/// What to ask to narrow a list of moves further: `topic` (`action`, `attribute`, `kind`,
/// `cell`, `area`, `slot`, `payment`), a prompt, and the options in list order, each its
/// label and the indices of the moves it leaves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Question {
    /// What the question is about.
    pub topic: &'static str,
    /// The question, for a person.
    pub prompt: String,
    /// Each answer and the indices of the moves it keeps.
    pub options: Vec<(String, Vec<usize>)>,
}

fn group(labels: impl Iterator<Item = String>) -> Vec<(String, Vec<usize>)> {
    let mut groups: Vec<(String, Vec<usize>)> = Vec::new();
    for (index, label) in labels.enumerate() {
        match groups.iter_mut().find(|(l, _)| *l == label) {
            Some((_, members)) => members.push(index),
            None => groups.push((label, vec![index])),
        }
    }
    groups
}

/// A take's copy choices: kind -> slot.
fn slots(text: &str) -> Vec<(&str, &str)> {
    split_move(text)
        .1
        .into_iter()
        .filter_map(|token| token.split_once('@'))
        .collect()
}

fn slot_of<'a>(text: &'a str, kind: &str) -> &'a str {
    slots(text)
        .into_iter()
        .find(|(k, _)| *k == kind)
        .map_or("", |(_, slot)| slot)
}

/// The question that splits `moves` (notation, all legal in one position), or `None` when they
/// are one move (or none). Asked in this order: the action, then the head's parts (attribute;
/// kind, cell; area), then a take's copy choices one kind at a time (kind order), then the
/// payment.
#[must_use]
pub fn next_question<S: AsRef<str>>(moves: &[S]) -> Option<Question> {
    question(&moves.iter().map(AsRef::as_ref).collect::<Vec<_>>())
}

fn question<'t>(texts: &[&'t str]) -> Option<Question> {
    let first = *texts.first()?;
    if texts.iter().all(|t| *t == first) {
        return None;
    }
    let heads: Vec<Vec<&'t str>> = texts.iter().map(|t| split_move(t).0).collect();
    let longest = heads.iter().map(Vec::len).max().unwrap_or(0);
    for index in 0..longest {
        let at = |h: &[&'t str]| -> &'t str { h.get(index).copied().unwrap_or("") };
        if heads.iter().all(|h| at(h) == at(&heads[0])) {
            continue;
        }
        if index == 0 {
            let options = group(heads.iter().map(|h| h[0].to_owned()));
            return Some(Question {
                topic: "action",
                prompt: "which action?".into(),
                options,
            });
        }
        let action = heads[0][0];
        let (topic, prompt) = match (index, action) {
            (2, _) => ("cell", "on which free space?".to_owned()),
            (_, "take") => (
                "attribute",
                "take which attribute (a colour or a pattern)?".into(),
            ),
            (_, "buy") => ("area", "buy into which area?".into()),
            _ => ("kind", format!("{action} which kind?")),
        };
        let options = group(heads.iter().map(|h| at(h).to_owned()));
        return Some(Question {
            topic,
            prompt,
            options,
        });
    }
    if heads[0][0] == "take" {
        let mut kinds: Vec<(u8, &str)> = slots(first)
            .into_iter()
            .map(|(k, _)| (k.parse::<Kind>().map_or(u8::MAX, Kind::id), k))
            .collect();
        kinds.sort_unstable();
        for (_, kind) in kinds {
            if texts
                .iter()
                .any(|t| slot_of(t, kind) != slot_of(first, kind))
            {
                return Some(Question {
                    topic: "slot",
                    prompt: format!("take {kind} from which slot?"),
                    options: group(texts.iter().map(|t| slot_of(t, kind).to_owned())),
                });
            }
        }
    }
    let payments = texts.iter().map(|t| {
        let rest = split_move(t).1;
        if rest.is_empty() {
            "nothing".to_owned()
        } else {
            rest.join(" ")
        }
    });
    Some(Question {
        topic: "payment",
        prompt: "pay with which discards (* is a joker, x a stored expansion)?".into(),
        options: group(payments),
    })
}

/// The questions that lead to each of `moves` (one position's), as JSON: `{"move": text}`
/// when one move is left, else `{"topic", "prompt", "options": [{"label", ...subtree}]}`
/// ([`next_question`]).
#[must_use]
pub fn choice_tree<S: AsRef<str>>(moves: &[S]) -> Value {
    let Some(question) = next_question(moves) else {
        return json!({"move": moves.first().map_or("", AsRef::as_ref)});
    };
    let options: Vec<Value> = question
        .options
        .iter()
        .map(|(label, members)| {
            let kept: Vec<&str> = members.iter().map(|&i| moves[i].as_ref()).collect();
            let mut option = Map::new();
            option.insert("label".into(), label.as_str().into());
            if let Value::Object(tree) = choice_tree(&kept) {
                option.extend(tree);
            }
            Value::Object(option)
        })
        .collect();
    json!({"topic": question.topic, "prompt": question.prompt, "options": options})
}

/// Moves grouped by a key, keys in order of first appearance.
type Group<'a> = Vec<(&'a str, Vec<&'a str>)>;
/// Placements grouped by kind, then by cell.
type ByKind<'a> = Vec<(&'a str, Group<'a>)>;

/// The value of `key` in `list`, added (empty) if missing.
fn entry<'a, 'k, T: Default>(list: &'a mut Vec<(&'k str, T)>, key: &'k str) -> &'a mut T {
    let at = list.iter().position(|(k, _)| *k == key).unwrap_or_else(|| {
        list.push((key, T::default()));
        list.len() - 1
    });
    &mut list[at].1
}

/// A legal-move list (notation) grouped as a page offers it to clicks, each group a
/// [`choice_tree`] of the questions left once it is clicked: `take`: attribute -> tree (the
/// slots of kinds found at several slots); `tile` / `exp`: kind -> cell -> tree (the
/// payments); `buy`: the areas (`buy AREA` is one move each); `pass`: whether `pass` is legal.
#[must_use]
pub fn move_choices<S: AsRef<str>>(legal: &[S]) -> Value {
    let mut takes: Group = Vec::new();
    let mut places: [ByKind; 2] = [Vec::new(), Vec::new()];
    let mut buy = Vec::new();
    let mut pass = false;
    for mv in legal {
        let text = mv.as_ref();
        let (head, _) = split_move(text);
        match (head[0], head.get(1), head.get(2)) {
            ("take", Some(attribute), _) => entry(&mut takes, attribute).push(text),
            (verb @ ("tile" | "exp"), Some(kind), Some(cell)) => {
                let cells = entry(&mut places[usize::from(verb == "exp")], kind);
                entry(cells, cell).push(text);
            }
            ("buy", Some(area), _) => buy.push(*area),
            _ => pass = true,
        }
    }
    let trees = |groups: &Group| -> Map<String, Value> {
        groups
            .iter()
            .map(|(key, moves)| ((*key).to_owned(), choice_tree(moves)))
            .collect()
    };
    let kind_trees = |groups: &ByKind| -> Map<String, Value> {
        groups
            .iter()
            .map(|(kind, cells)| ((*kind).to_owned(), Value::Object(trees(cells))))
            .collect()
    };
    json!({
        "take": trees(&takes),
        "tile": kind_trees(&places[0]),
        "exp": kind_trees(&places[1]),
        "buy": buy,
        "pass": pass,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Game, Rules};

    /// Following every branch of the choice tree reaches each legal move exactly once.
    fn leaves(tree: &Value, out: &mut Vec<String>) {
        if let Some(mv) = tree.get("move") {
            out.push(mv.as_str().unwrap().to_owned());
        } else {
            for option in tree["options"].as_array().unwrap() {
                leaves(option, out);
            }
        }
    }

    #[test]
    fn the_choices_of_every_position_lead_to_each_legal_move_once() {
        let mut game = Game::from_seed(Rules::with_players(2).unwrap(), 9);
        let mut turn = 0;
        while !game.position().is_over() {
            let legal: Vec<String> = game.legal_moves().iter().map(ToString::to_string).collect();
            let choices = move_choices(&legal);
            let mut reached = Vec::new();
            for tree in choices["take"].as_object().unwrap().values() {
                leaves(tree, &mut reached);
            }
            for action in ["tile", "exp"] {
                for cells in choices[action].as_object().unwrap().values() {
                    for tree in cells.as_object().unwrap().values() {
                        leaves(tree, &mut reached);
                    }
                }
            }
            for area in choices["buy"].as_array().unwrap() {
                reached.push(format!("buy {}", area.as_str().unwrap()));
            }
            if choices["pass"] == Value::Bool(true) {
                reached.push("pass".into());
            }
            let (mut want, mut got) = (legal.clone(), reached);
            want.sort();
            got.sort();
            assert_eq!(got, want);
            assert_eq!(candidates(&legal, "").len(), legal.len());
            assert_eq!(
                candidates(&legal, "pass with anything"),
                candidates(&legal, "pass")
            );
            let mv = game.legal_moves()[turn % legal.len()];
            game.play(&mv).unwrap();
            turn += 7;
        }
        assert_eq!(next_question::<&str>(&[]), None);
        assert_eq!(
            split_move("take 2 ye2@0"),
            (vec!["take", "2"], vec!["ye2@0"])
        );
    }
}

//! Helpers shared by the unit tests: every rules configuration, and positions met in random
//! games of each.

use crate::position::Position;
use crate::rng::shuffled_pile;
use crate::rules::GateVariant;
use crate::rules::Rules;
use indigo_search::{Bot, RandomBot};

pub(crate) fn all_configurations() -> Vec<Rules> {
    let mut out = Vec::new();
    for hand in 1..=2 {
        out.push(Rules::new(2, hand).unwrap());
        out.push(Rules::new(3, hand).unwrap());
        out.push(
            Rules::new(3, hand)
                .unwrap()
                .with_three_player_gates(GateVariant::Exclusive),
        );
        out.push(Rules::new(4, hand).unwrap());
    }
    out
}

pub(crate) fn random_positions(games: u64) -> Vec<Position> {
    let mut out = Vec::new();
    for (k, rules) in all_configurations().into_iter().enumerate() {
        for seed in 0..games {
            let mut p = Position::new(rules, &shuffled_pile(seed + 100 * k as u64)).unwrap();
            let mut bot = RandomBot::new(seed);
            out.push(p);
            while let Some(mv) = bot.choose(&p).map(crate::Action::to_move) {
                p.play(mv).unwrap();
                out.push(p);
            }
        }
    }
    out
}

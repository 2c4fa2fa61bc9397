//! Indigo on the one search: the trait's contract, and the generic search playing exactly as
//! the core's own ([`crate::Ismcts`], [`crate::Batch`]).

use std::sync::atomic::{AtomicBool, AtomicU64};

use indigo_search::{Game as _, Rng, Turn};
use rand::SeedableRng;

use crate::bots::{Bot, RandomBot};
use crate::ismcts::{Budget, Ismcts, IsmctsConfig};
use crate::position::Position;
use crate::rng::shuffled_pile;
use crate::rules::Rules;
use crate::search_game::IndigoSetup;
use crate::simulate::{Batch, BotSpec, Deal};

/// Positions of random games of 2 to 4 players, every third placement.
fn positions() -> Vec<Position> {
    let mut out = Vec::new();
    for seed in 0..9u64 {
        let rules = Rules::indigo(2 + (seed % 3) as u8).unwrap();
        let mut p = Position::new(rules, &shuffled_pile(seed)).unwrap();
        let mut bot = RandomBot::new(seed);
        while let Some(mv) = bot.choose_in(&p) {
            if p.placed().is_multiple_of(3) {
                out.push(p);
            }
            p.play(mv).unwrap();
        }
        out.push(p);
    }
    out
}

#[test]
fn legal_actions_are_the_legal_moves_and_apply_is_play() {
    let mut actions = Vec::new();
    for p in positions() {
        indigo_search::Game::legal_actions(&p, &mut actions);
        assert_eq!(actions, Position::legal_actions(&p));
        for &a in actions.iter().step_by(7) {
            let (mut by_action, mut by_move) = (p, p);
            indigo_search::Game::apply(&mut by_action, a);
            by_move.play(a.to_move()).unwrap();
            assert_eq!(by_action, by_move);
        }
        assert_eq!(p.turn() == Turn::Over, actions.is_empty());
    }
}

#[test]
fn chance_outcomes_are_the_pile_counts_and_sum_to_one() {
    let mut p = Position::new_explicit(Rules::indigo(3).unwrap());
    let mut rng = Rng::seed_from_u64(4);
    let mut outcomes = Vec::new();
    let mut chance_nodes = 0;
    while p.turn() != Turn::Over {
        if p.turn() == Turn::Chance {
            chance_nodes += 1;
            p.chance_outcomes(&mut outcomes);
            assert!((outcomes.iter().map(|o| o.1).sum::<f64>() - 1.0).abs() < 1e-12);
            let counts = p.chance_counts();
            for &(a, prob) in &outcomes {
                let n = f64::from(counts[a.index()]);
                assert!((prob - n / f64::from(p.pile_left())).abs() < 1e-12);
            }
        }
        let a = p.playout_action(&mut rng, &mut Vec::new()).unwrap();
        indigo_search::Game::apply(&mut p, a);
    }
    assert!(chance_nodes > 50);
}

#[test]
fn determinizations_keep_what_the_seat_knows() {
    let positions = positions();
    for (i, p) in positions.iter().enumerate() {
        for seed in 0..4u64 {
            let Some(seat) = p.to_move() else { continue };
            let sample = p.determinize(seat, &mut Rng::seed_from_u64(seed + 10 * i as u64));
            assert_eq!(sample.information_string(seat), p.information_string(seat));
            // The search relies on this at its root: the mover's legal actions are known.
            assert_eq!(sample.legal_action_set(), p.legal_action_set());
            // Sampled in place over another game's position: the same sample.
            let mut reused = positions[(i * 7 + 3) % positions.len()];
            let info = p.information(seat);
            Position::sample_into(
                &info,
                &mut reused,
                &mut Rng::seed_from_u64(seed + 10 * i as u64),
            );
            assert_eq!(reused, sample);
        }
    }
}

#[test]
fn the_generic_search_finds_what_the_core_search_finds() {
    for (i, p) in positions().into_iter().step_by(5).enumerate() {
        let Some(seat) = p.to_move() else { continue };
        for threads in [1, 2] {
            let config = IsmctsConfig::new(Budget::Simulations(300), 0.7, threads).unwrap();
            let core = Ismcts::new(config, i as u64)
                .search(&p.information(seat))
                .unwrap();
            let generic_config = indigo_search::IsmctsConfig::new(
                indigo_search::Budget::Simulations(300),
                0.7,
                threads,
            )
            .unwrap();
            let generic = indigo_search::Ismcts::new(generic_config, i as u64)
                .search(&p)
                .unwrap();
            assert_eq!(generic.best.to_move(), core.best);
            assert_eq!(generic.visits, core.visits);
            assert_eq!(generic.simulations, core.simulations);
            assert!((generic.value - core.value).abs() < 1e-6);
        }
    }
}

#[test]
fn the_generic_batch_plays_the_core_batch_games() {
    let rules = Rules::indigo(3).unwrap();
    let names = ["random", "playout", "ismcts:40"];
    let core_specs: Vec<BotSpec> = names.iter().map(|s| s.parse().unwrap()).collect();
    let generic_specs: Vec<indigo_search::BotSpec> =
        names.iter().map(|s| s.parse().unwrap()).collect();
    let lineups = [vec![0, 1, 2], vec![2, 0, 1]];
    let core = Batch::new(rules, core_specs, Some(&lineups), 5, Deal::Python).unwrap();
    let generic = indigo_search::Batch::new(
        IndigoSetup {
            rules,
            deal: Deal::Python,
        },
        generic_specs,
        Some(&lineups),
        5,
    )
    .unwrap();
    let (done, cancel) = (AtomicU64::default(), AtomicBool::new(false));
    let a = core.run(0..6, 1, &done, &cancel).unwrap();
    let b = generic.run(0..6, 1, &done, &cancel).unwrap();
    for (a, b) in a.iter().zip(&b) {
        assert_eq!(a.scores.map(i64::from), b.scores);
        assert_eq!(a.winners, b.winners);
        assert_eq!(u32::from(a.placements), b.moves);
    }
}

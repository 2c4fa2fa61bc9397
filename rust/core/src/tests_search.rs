//! Tests of the search interface: actions, chance nodes, information, determinization,
//! bots and batches.

// Observation values are small integers, exact in f32.
#![allow(clippy::float_cmp)]

use std::sync::atomic::{AtomicBool, AtomicU64};

use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

use crate::action::{ACTION_COUNT, Action};
use crate::bots::{Bot, RandomBot};
use crate::game::Game;
use crate::ismcts::{Budget, Ismcts, IsmctsConfig};
use crate::moves::Move;
use crate::position::{Information, OBSERVATION_SIZE, Phase, Position};
use crate::record::snapshot;
use crate::rng::below;
use crate::rng::shuffled_pile;
use crate::rules::Rules;
use crate::selfplay::Samples;
use crate::simulate::{Batch, BatchError, BotSpec, Deal, Outcome, play_game};
use crate::tests::all_configurations;
use crate::tile::{TILE_TYPE_COUNT, TileType};

/// Positions met in random games of every configuration.
fn random_positions(games: u64) -> Vec<Position> {
    let mut out = Vec::new();
    for (k, rules) in all_configurations().into_iter().enumerate() {
        for seed in 0..games {
            let mut p = Position::new(rules, &shuffled_pile(seed + 100 * k as u64)).unwrap();
            let mut bot = RandomBot::new(seed);
            out.push(p);
            while let Some(mv) = bot.choose_in(&p) {
                p.play(mv).unwrap();
                out.push(p);
            }
        }
    }
    out
}

#[test]
fn every_action_round_trips_through_its_move_and_text() {
    for n in 0..ACTION_COUNT {
        let action = Action::new(n as i64).unwrap();
        let mv = action.to_move();
        assert_eq!(mv, mv.canonical(), "action {n} names a canonical move");
        let text = mv.to_string();
        let parsed: Move = text.parse().unwrap();
        assert_eq!(Action::from_move(parsed), Some(action), "{text}");
    }
    assert_eq!(ACTION_COUNT, 810);
    assert!(Action::new(ACTION_COUNT as i64).is_err());
    assert!(Action::new(-1).is_err());
}

#[test]
fn equivalent_rotations_share_one_action() {
    // Type 1 (three straights) looks the same after a half turn.
    let a: Move = "1@4:0,-3".parse().unwrap();
    let b: Move = "1@1:0,-3".parse().unwrap();
    assert_eq!(Action::from_move(a), Action::from_move(b));
    let c: Move = "0@0:0,0".parse().unwrap();
    assert_eq!(Action::from_move(c), None, "the centre is no route cell");
}

#[test]
fn legal_actions_agree_with_the_legal_moves() {
    for p in random_positions(3) {
        let moves = p.legal_moves();
        let actions = p.legal_actions();
        let from_moves: Vec<Action> = moves
            .iter()
            .map(|&m| Action::from_move(m).unwrap())
            .collect();
        assert_eq!(actions, from_moves, "same actions, same order");
        let set = p.legal_action_set();
        assert_eq!(set.len(), actions.len());
        assert_eq!(set.iter().collect::<Vec<_>>(), actions);
        for (k, &a) in actions.iter().enumerate() {
            assert_eq!(set.nth(k), Some(a));
            assert_eq!(p.check(a.to_move()), Ok(()));
        }
    }
}

/// Plays `pile` with the same random choices in sampled and in explicit-chance mode.
fn play_both_modes(rules: Rules, pile: &[TileType], seed: u64) {
    let mut sampled = Position::new(rules, pile).unwrap();
    let mut explicit = Position::new_explicit(rules);
    let mut draws = pile.iter();
    let mut rng = Pcg64Mcg::seed_from_u64(seed);
    loop {
        while let Phase::Draw(_) = explicit.phase() {
            let counts = explicit.chance_counts();
            assert_eq!(
                counts.iter().map(|&c| u32::from(c)).sum::<u32>(),
                u32::from(explicit.pile_left()),
                "the outcome weights are the pile"
            );
            let tile = *draws.next().unwrap();
            assert!(counts[tile as usize] > 0);
            explicit.apply_draw(tile).unwrap();
        }
        assert_eq!(
            snapshot(&explicit, None, true),
            snapshot(&sampled, None, true),
            "same outcomes, same game"
        );
        let moves = sampled.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves[below(&mut rng, moves.len())];
        sampled.play(mv).unwrap();
        explicit.play(mv).unwrap();
    }
    assert!(explicit.is_over() && sampled.is_over());
}

#[test]
fn explicit_and_sampled_chance_give_the_same_games() {
    for (k, rules) in all_configurations().into_iter().enumerate() {
        for seed in 0..5 {
            play_both_modes(rules, &shuffled_pile(seed * 31 + k as u64), seed);
        }
    }
}

#[test]
fn chance_outcomes_are_checked() {
    let rules = Rules::indigo(2).unwrap();
    let mut p = Position::new_explicit(rules);
    assert_eq!(p.phase(), Phase::Draw(0));
    assert_eq!(p.chance_counts(), [14, 6, 14, 14, 6]);
    assert!(
        p.play("0@0:0,-3".parse().unwrap()).is_err(),
        "no move before the deal"
    );
    // Deal two Bends, then draw a Bends after each move until all six are out.
    p.apply_draw(TileType::Bends).unwrap();
    assert_eq!(p.phase(), Phase::Draw(1));
    p.apply_draw(TileType::Bends).unwrap();
    assert_eq!(p.phase(), Phase::Move(0));
    assert!(p.apply_draw(TileType::Bends).is_err(), "no draw is waiting");
    for k in 0..4 {
        let mv = p.legal_moves()[0];
        p.play(mv).unwrap();
        assert_eq!(p.phase(), Phase::Draw(k % 2));
        assert_eq!(p.chance_counts()[4], 4 - k);
        p.apply_draw(TileType::Bends).unwrap();
    }
    let mv = p.legal_moves()[0];
    p.play(mv).unwrap();
    let mut q = p;
    let frozen = q;
    assert!(
        q.apply_draw(TileType::Bends).is_err(),
        "only six tiles of type 4"
    );
    assert_eq!(q, frozen, "a refused outcome changes nothing");
    let mut r = Position::new(rules, &shuffled_pile(1)).unwrap();
    assert!(
        r.apply_draw(TileType::Bends).is_err(),
        "sampled games have no chance nodes"
    );
}

#[test]
fn information_hides_exactly_the_hidden_tiles() {
    for p in random_positions(2) {
        for seat in 0..p.rules().players() {
            let info = p.information(seat);
            // Changing only what `seat` cannot see leaves its information unchanged.
            let mut rng = Pcg64Mcg::seed_from_u64(u64::from(seat));
            let other = info.sample(&mut rng);
            if p.is_chance_node() {
                continue;
            }
            assert_eq!(
                other.information(seat),
                info,
                "resampling keeps the information"
            );
            assert_eq!(
                other.hand(seat).collect::<Vec<_>>(),
                p.hand(seat).collect::<Vec<_>>()
            );
            let mut unseen = [0u8; TILE_TYPE_COUNT];
            for t in other.pile_rest() {
                unseen[t as usize] += 1;
            }
            for s in (0..p.rules().players()).filter(|&s| s != seat) {
                for t in other.hand(s) {
                    unseen[t as usize] += 1;
                }
            }
            assert_eq!(
                unseen,
                info.unseen(),
                "the sample is drawn from the unseen tiles"
            );
        }
    }
}

#[test]
fn a_determinization_does_not_depend_on_the_hidden_truth() {
    // Two games that differ only in the pile and the opponent's hand look the same to seat 0.
    let rules = Rules::indigo(2).unwrap();
    let mut a = crate::rng::box_in_type_order().to_vec();
    let mut b = a.clone();
    a.swap(1, 53); // seat 1's tile differs
    b.swap(2, 40); // the pile order differs
    let pa = Position::new(rules, &a).unwrap();
    let pb = Position::new(rules, &b).unwrap();
    assert_eq!(pa.information(0), pb.information(0));
    // The hidden tile's distribution over samples follows the unseen counts, whatever it is.
    let info = pa.information(0);
    let unseen = info.unseen();
    let total: u32 = unseen.iter().map(|&c| u32::from(c)).sum();
    let mut rng = Pcg64Mcg::seed_from_u64(5);
    let samples = 40_000;
    let mut seen = [0u32; TILE_TYPE_COUNT];
    for _ in 0..samples {
        let t = info.sample(&mut rng).hand(1).next().unwrap();
        seen[t as usize] += 1;
    }
    for t in 0..TILE_TYPE_COUNT {
        let expected = f64::from(samples) * f64::from(unseen[t]) / f64::from(total);
        let sd = (expected * (1.0 - expected / f64::from(samples))).sqrt();
        assert!(
            (f64::from(seen[t]) - expected).abs() < 5.0 * sd,
            "type {t}: {} vs {expected:.0}",
            seen[t]
        );
    }
}

#[test]
fn observation_tensors_differ_only_by_what_the_seat_sees() {
    for p in random_positions(1) {
        for seat in 0..p.rules().players() {
            let mut a = [0f32; OBSERVATION_SIZE];
            let mut b = [0f32; OBSERVATION_SIZE];
            let info = p.information(seat);
            info.observation(&mut a);
            info.sample(&mut Pcg64Mcg::seed_from_u64(9))
                .information(seat)
                .observation(&mut b);
            if !p.is_chance_node() {
                assert_eq!(a, b);
            }
            // Planes are one-hot where they say so: every route cell is empty or tiled.
            let cells = crate::board::CELL_COUNT;
            for cell in crate::board::Cell::all().filter(|c| c.is_route()) {
                let i = cell.index();
                let tiled: f32 = (1..6).map(|t| a[t * cells + i]).sum();
                assert_eq!(a[i] + tiled, 1.0);
            }
        }
    }
}

#[test]
fn resampled_games_keep_the_observers_information_state() {
    for (k, rules) in all_configurations().into_iter().enumerate() {
        for explicit in [false, true] {
            let mut game = if explicit {
                Game::explicit_chance(rules)
            } else {
                Game::from_seed(rules, k as u64)
            };
            let pile = shuffled_pile(k as u64);
            let mut draws = pile.iter();
            let mut rng = Pcg64Mcg::seed_from_u64(k as u64);
            let mut bot = RandomBot::new(3);
            for turn in 0.. {
                while game.position().is_chance_node() {
                    game.apply_draw(*draws.next().unwrap()).unwrap();
                }
                if turn % 7 == 0 {
                    for seat in 0..rules.players() {
                        let copy = game.resample(seat, &mut rng);
                        assert_eq!(
                            copy.information_state_string(seat),
                            game.information_state_string(seat)
                        );
                        assert_eq!(
                            copy.moves().collect::<Vec<_>>(),
                            game.moves().collect::<Vec<_>>()
                        );
                    }
                }
                let Some(mv) = bot.choose_in(game.position()) else {
                    break;
                };
                game.play(mv).unwrap();
            }
        }
    }
}

#[test]
fn information_states_separate_public_and_private_parts() {
    let rules = Rules::indigo(2).unwrap();
    let mut game = Game::from_seed(rules, 4);
    let mut bot = RandomBot::new(1);
    for _ in 0..4 {
        game.play(bot.choose_in(game.position()).unwrap()).unwrap();
    }
    let (s0, s1) = (
        game.information_state_string(0),
        game.information_state_string(1),
    );
    let public = game.public_information_string();
    assert!(s0.starts_with(&public) && s1.starts_with(&public));
    assert_ne!(s0, s1, "hands are private");
    assert_ne!(
        game.information_state_hash(0),
        game.information_state_hash(1)
    );
    let pile = game.position().pile();
    assert!(
        !game
            .private_information_string(0)
            .contains(&format!("{}{}", pile[10] as u8, pile[11] as u8))
            || pile[10] == pile[11],
        "future draws are not in the string"
    );
}

#[test]
fn bots_play_only_legal_moves_in_every_configuration() {
    let specs: [BotSpec; 3] = [
        BotSpec::Random,
        BotSpec::Greedy,
        BotSpec::Ismcts(IsmctsConfig::simulations(30)),
    ];
    for rules in all_configurations() {
        let players = usize::from(rules.players());
        let seats: Vec<BotSpec> = (0..players).map(|s| specs[s % 3]).collect();
        for index in 0..2 {
            // play_game stops early on an illegal move; a full game proves every move legal.
            let outcome = play_game(
                rules,
                &seats,
                11,
                index,
                Deal::Python,
                &AtomicBool::new(false),
            );
            let mut p =
                Position::new(rules, &shuffled_pile(crate::rng::game_seed(11, index))).unwrap();
            let mut bots: Vec<crate::simulate::NativeBot> = (0..)
                .zip(&seats)
                .map(|(s, spec)| spec.build(crate::rng::mix(crate::rng::game_seed(11, index), s)))
                .collect();
            while let Some(seat) = p.to_move() {
                let mv = bots[usize::from(seat)]
                    .choose(&p.information(seat))
                    .unwrap();
                p.play(mv).unwrap();
            }
            assert_eq!(outcome.scores, p.scores());
            assert_eq!(outcome.placements, p.placed());
        }
    }
}

#[test]
fn ismcts_is_deterministic_with_a_seed_and_a_simulation_budget() {
    let p = Position::new(Rules::tactical(3).unwrap(), &shuffled_pile(8)).unwrap();
    let info: Information = p.information(0);
    for threads in [1, 2] {
        let config = IsmctsConfig::new(Budget::Simulations(400), 0.7, threads).unwrap();
        let a = Ismcts::new(config, 42).search(&info).unwrap();
        let b = Ismcts::new(config, 42).search(&info).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.simulations, 400);
        assert_eq!(
            a.visits.iter().map(|&(_, v)| u64::from(v)).sum::<u64>(),
            400
        );
        assert!(
            a.visits
                .iter()
                .all(|&(action, _)| p.check(action.to_move()).is_ok())
        );
    }
    let timed = IsmctsConfig::new(Budget::seconds(0.02).unwrap(), 0.7, 1).unwrap();
    let r = Ismcts::new(timed, 1).search(&info).unwrap();
    assert!(r.simulations > 0 && p.check(r.best).is_ok());
    assert!(
        Ismcts::new(timed, 1).search(&p.information(1)).is_none(),
        "not seat 1's turn"
    );
}

#[test]
fn ismcts_beats_random_play() {
    // Seeded, so this always plays the same 20 games; a broken search loses many of them.
    let batch = Batch::new(
        Rules::indigo(2).unwrap(),
        vec![
            BotSpec::Ismcts(IsmctsConfig::simulations(300)),
            BotSpec::Random,
        ],
        Some(&[vec![0, 1], vec![1, 0]]),
        5,
        Deal::Python,
    )
    .unwrap();
    let outcomes = batch
        .run(0..20, 0, &AtomicU64::new(0), &AtomicBool::new(false))
        .unwrap();
    let wins = (0..)
        .zip(&outcomes)
        .filter(|&(i, o)| o.winners & (1 << (i % 2)) != 0)
        .count();
    assert!(wins >= 18, "ISMCTS won only {wins} of 20");
}

#[test]
fn bot_specs_parse_and_print() {
    for text in [
        "random",
        "greedy",
        "playout",
        "ismcts:1000",
        "ismcts:time=0.5",
        "ismcts:200,c=0.5,threads=2",
    ] {
        let spec: BotSpec = text.parse().unwrap();
        assert_eq!(spec.to_string(), text);
    }
    assert_eq!(
        "ismcts".parse::<BotSpec>().unwrap().to_string(),
        "ismcts:1000"
    );
    for bad in [
        "",
        "minimax",
        "random:3",
        "playout:1",
        "ismcts:-1",
        "ismcts:1.5",
        "ismcts:c=nan",
        "ismcts:x=1",
    ] {
        let err = bad.parse::<BotSpec>().unwrap_err();
        assert!(err.0.contains("expected random"), "{err}");
    }
}

#[test]
fn ismcts_settings_accept_their_bounds_and_refuse_beyond() {
    let max_time = IsmctsConfig::MAX_TIME.as_secs_f64();
    let min_time = IsmctsConfig::MIN_TIME.as_secs_f64();
    let accepted = [
        "ismcts:1".to_owned(),
        format!("ismcts:{}", IsmctsConfig::MAX_SIMULATIONS),
        format!("ismcts:time={min_time}"),
        format!("ismcts:time={max_time}"),
        "ismcts:time=0.123456789".to_owned(),
        "ismcts:5,c=1e-45".to_owned(),
        format!("ismcts:5,c={}", IsmctsConfig::MAX_EXPLORATION),
        "ismcts:5,c=0.1".to_owned(),
        "ismcts:5,threads=1".to_owned(),
        format!("ismcts:5,threads={}", IsmctsConfig::MAX_THREADS),
    ];
    for text in &accepted {
        let spec: BotSpec = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
        let again: BotSpec = spec.to_string().parse().unwrap();
        assert_eq!(
            again, spec,
            "{text} prints as {spec}, which reads back differently"
        );
        assert_eq!(again.to_string(), spec.to_string());
    }
    let refused = [
        "ismcts:0".to_owned(),
        format!("ismcts:{}", IsmctsConfig::MAX_SIMULATIONS + 1),
        "ismcts:1e30".to_owned(),
        "ismcts:time=0".to_owned(),
        "ismcts:time=1e-7".to_owned(),
        format!("ismcts:time={}", max_time * 1.000_001),
        "ismcts:time=1e19".to_owned(),
        "ismcts:time=inf".to_owned(),
        "ismcts:time=nan".to_owned(),
        "ismcts:5,c=0".to_owned(),
        "ismcts:5,c=1e-50".to_owned(),
        "ismcts:5,c=-1".to_owned(),
        "ismcts:5,c=1e39".to_owned(),
        "ismcts:5,c=100.001".to_owned(),
        "ismcts:5,threads=0".to_owned(),
        format!("ismcts:5,threads={}", IsmctsConfig::MAX_THREADS + 1),
        "ismcts:5,threads=1.5".to_owned(),
    ];
    for text in &refused {
        assert!(text.parse::<BotSpec>().is_err(), "{text} was accepted");
    }
    // The constructor shares the bounds, and direct budgets are checked too.
    assert!(IsmctsConfig::new(Budget::Time(std::time::Duration::MAX), 0.7, 1).is_err());
    assert!(IsmctsConfig::new(Budget::Simulations(0), 0.7, 1).is_err());
    assert!(IsmctsConfig::new(Budget::Simulations(u64::MAX), 0.7, 1).is_err());
    let inf = IsmctsConfig::new(Budget::Simulations(5), 1e39, 1).unwrap_err();
    assert!(inf.0.contains("not inf"), "{inf}");
    let zero = IsmctsConfig::new(Budget::Simulations(5), 1e-50, 1).unwrap_err();
    assert!(zero.0.contains("not 0"), "{zero}");
}

#[test]
fn a_stopped_search_ends_early_with_what_it_found() {
    let p = Position::new(Rules::indigo(2).unwrap(), &shuffled_pile(3)).unwrap();
    let info = p.information(0);
    let stop = AtomicBool::new(true);
    for budget in [
        Budget::Simulations(IsmctsConfig::MAX_SIMULATIONS),
        Budget::Time(IsmctsConfig::MAX_TIME),
    ] {
        for threads in [1, 2] {
            let config = IsmctsConfig::new(budget, 0.7, threads).unwrap();
            let found = Ismcts::new(config, 1).search_until(&info, &stop).unwrap();
            assert!(
                found.simulations <= 32 * threads as u64,
                "{}",
                found.simulations
            );
        }
    }
    let mut calls = 0;
    let config = IsmctsConfig::new(Budget::Time(IsmctsConfig::MAX_TIME), 0.7, 2).unwrap();
    let found = Ismcts::new(config, 1)
        .search_watched(&info, std::time::Duration::from_millis(1), || {
            calls += 1;
            calls == 3
        })
        .unwrap();
    assert_eq!(calls, 3);
    assert!(p.check(found.best).is_ok());
    // A short search runs on the calling thread, unwatched, and whole.
    let short = IsmctsConfig::simulations(Ismcts::UNWATCHED_SIMULATIONS);
    let found = Ismcts::new(short, 1)
        .search_watched(&info, std::time::Duration::ZERO, || {
            unreachable!("not watched")
        })
        .unwrap();
    assert_eq!(found.simulations, Ismcts::UNWATCHED_SIMULATIONS);
}

#[test]
fn batches_do_not_depend_on_threads_or_splitting() {
    let batch = Batch::new(
        Rules::indigo(2).unwrap(),
        vec![BotSpec::Random, BotSpec::Greedy],
        Some(&[vec![0, 1], vec![1, 0]]),
        99,
        Deal::Pcg,
    )
    .unwrap();
    let (done, cancel) = (AtomicU64::new(0), AtomicBool::new(false));
    let whole = batch.run(0..40, 1, &done, &cancel).unwrap();
    let mut split = batch.run(0..15, 2, &done, &cancel).unwrap();
    split.extend(batch.run(15..40, 2, &done, &cancel).unwrap());
    assert_eq!(whole, split);
    assert_eq!(done.load(std::sync::atomic::Ordering::Relaxed), 80);
    cancel.store(true, std::sync::atomic::Ordering::Relaxed);
    assert!(batch.run(0..10, 1, &done, &cancel).is_none());
}

#[test]
fn returns_follow_the_result() {
    use crate::position::Utility;
    for (k, rules) in all_configurations().into_iter().enumerate() {
        let mut p = Position::new(rules, &shuffled_pile(k as u64 + 40)).unwrap();
        let mut bot = RandomBot::new(k as u64);
        assert_eq!(p.returns(Utility::Win), [0.0; 4]);
        while let Some(mv) = bot.choose_in(&p) {
            p.play(mv).unwrap();
        }
        let players = usize::from(rules.players());
        let (win, rank, points) = (
            p.returns(Utility::Win),
            p.returns(Utility::Rank),
            p.returns(Utility::Points),
        );
        assert!((win.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        // Ranks are pairwise shares: they sum to half the number of pairs each seat is in.
        assert!((rank.iter().sum::<f64>() - players as f64 / 2.0).abs() < 1e-12);
        for seat in 0..players {
            assert_eq!(points[seat], f64::from(p.scores()[seat]));
            let winner = p.winners() & (1 << seat) != 0;
            assert_eq!(win[seat] > 0.0, winner);
            if winner {
                assert!(rank.iter().all(|&r| r <= rank[seat]));
            }
        }
    }
}

#[test]
fn native_playouts_are_the_batch_games_of_playout_bots() {
    for rules in [Rules::indigo(2).unwrap(), Rules::tactical(4).unwrap()] {
        let batch = Batch::new(rules, vec![BotSpec::Playout], None, 17, Deal::Pcg).unwrap();
        let outcomes = batch
            .run(3..203, 2, &AtomicU64::new(0), &AtomicBool::new(false))
            .unwrap();
        let native = crate::bench::playouts(rules, 17, 3..203);
        assert_eq!(native, crate::bench::GamesSummary::of(&outcomes));
        assert_eq!(native.games, 200);
        // Every game ran to the end: 54 tiles or all gems gone.
        assert!(
            outcomes
                .iter()
                .all(|o| o.placements == 54 || o.scores.iter().sum::<u16>() > 0)
        );
        // The checksum sees a change in any game.
        let shifted = crate::bench::playouts(rules, 17, 4..204);
        assert_ne!(native.checksum, shifted.checksum);
    }
}

#[test]
fn playout_bot_reads_only_what_the_mover_sees() {
    use crate::bots::PlayoutBot;
    for rules in all_configurations() {
        for seed in 0..10u64 {
            let mut p = Position::new(rules, &crate::rng::pcg_pile(seed)).unwrap();
            let (mut direct, mut informed) = (PlayoutBot::new(seed), PlayoutBot::new(seed));
            while let Some(seat) = p.to_move() {
                let mv = direct.choose_in(&p).unwrap();
                assert_eq!(informed.choose(&p.information(seat)), Some(mv));
                p.play(mv).unwrap();
            }
            assert!(p.is_over());
        }
    }
}

#[test]
fn pcg_deals_are_shuffled_boxes() {
    let piles: Vec<_> = (0..50).map(crate::rng::pcg_pile).collect();
    for pile in &piles {
        assert!(Position::new(Rules::indigo(2).unwrap(), pile).is_ok());
    }
    let distinct: std::collections::HashSet<_> = piles.iter().collect();
    assert_eq!(distinct.len(), 50);
    assert_eq!(Deal::Pcg.pile(9), crate::rng::pcg_pile(9));
    assert_eq!(Deal::Python.pile(9), shuffled_pile(9));
    assert_eq!("pcg".parse::<Deal>(), Ok(Deal::Pcg));
    assert!("mt".parse::<Deal>().is_err());
}

fn self_play_batch(players: u8) -> Batch {
    Batch::new(
        Rules::indigo(players).unwrap(),
        vec![
            BotSpec::Ismcts(IsmctsConfig::simulations(40)),
            BotSpec::Greedy,
            BotSpec::Random,
            BotSpec::Playout,
        ],
        Some(&[
            (0..i64::from(players)).collect(),
            (0..i64::from(players)).rev().collect(),
        ]),
        11,
        Deal::Python,
    )
    .unwrap()
}

#[test]
fn self_play_plays_the_batch_games() {
    for players in [2, 3, 4] {
        let batch = self_play_batch(players);
        let (done, cancel) = (AtomicU64::new(0), AtomicBool::new(false));
        let outcomes = batch.run(5..11, 2, &done, &cancel).unwrap();
        let games = batch.self_play(5..11, 2, &done, &cancel).unwrap();
        assert_eq!(done.into_inner(), 12);
        let kept: Vec<_> = games.iter().map(|g| g.outcome).collect();
        assert_eq!(kept, outcomes);
    }
}

#[test]
fn self_play_samples_describe_every_move_of_the_record() {
    let batch = self_play_batch(3);
    let (done, cancel) = (AtomicU64::new(0), AtomicBool::new(false));
    let mut all = Samples::default();
    let games = batch.self_play(20..24, 1, &done, &cancel).unwrap();
    for (index, played) in (20..24).zip(&games) {
        let samples = &played.samples;
        let game = crate::record::read_record_value(&played.record).unwrap();
        assert_eq!(played.record["game"], index);
        assert_eq!(
            played.record["players_names"][0],
            batch.seats(index)[0].to_string()
        );
        assert_eq!(Outcome::of(game.position()), played.outcome);
        assert_eq!(samples.len(), game.moves().len());
        assert!(samples.game.iter().all(|&g| g == index));
        let mut replay = Game::from_seed(batch.rules(), batch.game_seed(index));
        for (row, mv) in game.moves().enumerate() {
            let position = replay.position();
            let seat = position.to_move().unwrap();
            assert_eq!(samples.ply[row] as usize, row);
            assert_eq!(samples.seat[row], seat);
            let mut observation = [0f32; OBSERVATION_SIZE];
            position.information(seat).observation(&mut observation);
            let rows = row * OBSERVATION_SIZE..(row + 1) * OBSERVATION_SIZE;
            assert_eq!(samples.observations[rows], observation);
            let action = Action::from_move(mv).unwrap();
            assert_eq!(samples.action[row] as usize, action.index());
            let mask = &samples.legal_masks[row * ACTION_COUNT..(row + 1) * ACTION_COUNT];
            let legal: Vec<usize> = position.legal_actions().iter().map(|a| a.index()).collect();
            let masked: Vec<usize> = (0..ACTION_COUNT).filter(|&a| mask[a]).collect();
            assert_eq!(masked, legal);
            let visits =
                samples.visit_offsets[row] as usize..samples.visit_offsets[row + 1] as usize;
            let searched = matches!(batch.seats(index)[usize::from(seat)], BotSpec::Ismcts(_));
            assert_eq!(samples.searched[row], searched);
            if searched {
                assert_eq!(samples.visit_counts[visits.clone()].iter().sum::<u32>(), 40);
                assert!(
                    samples.visit_actions[visits]
                        .iter()
                        .all(|&a| mask[a as usize])
                );
            } else {
                assert!(visits.is_empty());
            }
            let returns = game.position().returns(crate::position::Utility::Win);
            assert_eq!(samples.outcome[row], returns[usize::from(seat)] as f32);
            assert_eq!(
                samples.points[row],
                game.position().scores()[usize::from(seat)]
            );
            replay.play(mv).unwrap();
        }
        let before = all.len();
        all.append(samples);
        assert_eq!(all.len(), before + samples.len());
        assert_eq!(
            *all.visit_offsets.last().unwrap() as usize,
            all.visit_actions.len()
        );
    }
    assert_eq!(all.visit_offsets.len(), all.len() + 1);
    assert_eq!(all.observations.len(), all.len() * OBSERVATION_SIZE);
    let parts: Vec<&Samples> = games.iter().map(|g| &g.samples).collect();
    assert_eq!(Samples::concat(&parts), all);
}

#[test]
fn a_batch_is_checked_when_built() {
    let rules = Rules::indigo(3).unwrap();
    let new = |bots: Vec<BotSpec>, lineups: Option<&[Vec<i64>]>| {
        Batch::new(rules, bots, lineups, 0, Deal::Python).map_err(|e| e.0)
    };
    let one = || vec![BotSpec::Random];
    let err = |r: Result<Batch, String>| r.unwrap_err();
    assert!(err(new(vec![], None)).contains("at least one bot"));
    assert!(err(new(one(), Some(&[]))).contains("must not be empty"));
    assert!(err(new(one(), Some(&[vec![0, 0]]))).contains("one bot index per seat (3), not 2"));
    assert!(err(new(one(), Some(&[vec![0, 1, 0]]))).contains("index 1 is not 0..0"));
    assert!(err(new(one(), Some(&[vec![0, -1, 0]]))).contains("index -1"));
    let two = vec![BotSpec::Random, BotSpec::Greedy];
    assert!(err(new(two.clone(), None)).contains("one bot per seat (3)"));
    // Default seatings: a lone bot everywhere; one bot per seat in seat order.
    assert_eq!(new(one(), None).unwrap().lineup(7), [0, 0, 0]);
    let three = vec![BotSpec::Random, BotSpec::Greedy, BotSpec::Playout];
    let batch = new(three, None).unwrap();
    assert_eq!(batch.lineup(5), [0, 1, 2]);
    let batch = new(two, Some(&[vec![0, 1, 1], vec![1, 0, 0]])).unwrap();
    assert_eq!(batch.lineup(3), [1, 0, 0]);
    assert_eq!(
        batch.seats(4),
        [BotSpec::Random, BotSpec::Greedy, BotSpec::Greedy]
    );
}

#[test]
fn a_batch_range_is_checked() {
    assert_eq!(Batch::games(3, 4, 2), Ok((3..7, 2)));
    let err = |r: Result<_, BatchError>| r.unwrap_err().0;
    assert_eq!(
        err(Batch::games(0, -1, 0)),
        "games must be 0 to 2**32, not -1"
    );
    assert_eq!(
        err(Batch::games(-5, 1, 0)),
        "start must be 0 to 2**62, not -5"
    );
    assert_eq!(
        err(Batch::games(0, 1, 1025)),
        "threads must be 0 to 1024, not 1025"
    );
    assert!(Batch::games(1 << 62, 1 << 32, 1024).is_ok());
}

#[test]
fn a_budget_is_given_as_simulations_or_time() {
    assert_eq!(
        Budget::given(None, None),
        Ok(Budget::Simulations(IsmctsConfig::DEFAULT_SIMULATIONS))
    );
    assert_eq!(Budget::given(Some(5), None), Budget::simulations(5));
    assert_eq!(Budget::given(None, Some(0.5)), Budget::seconds(0.5));
    assert!(
        Budget::given(Some(5), Some(0.5))
            .unwrap_err()
            .0
            .contains("not both")
    );
    assert!(Budget::given(Some(0), None).is_err());
}

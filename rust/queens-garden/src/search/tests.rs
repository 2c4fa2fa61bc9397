//! The search trait's contract for Queen's Garden, its action encoding and its bots.

use indigo_search::{
    ActionSet as _, Bot, BotSpec, Game as _, IsmctsConfig, PlayoutPolicy, Rng, SearchBot, Turn,
};
use rand::SeedableRng;

use crate::action::{ACTION_COUNT, Action, PAYMENT_COUNT, payments};
use crate::geometry::Cell;
use crate::kind::Kind;
use crate::moves::Move;
use crate::position::{Placing, Position};
use crate::rules::Rules;

/// Positions of random seeded games of 2 to 4 players, every `every`-th move.
fn positions(games: u64, every: u32) -> Vec<Position> {
    let mut out = Vec::new();
    for seed in 0..games {
        let players = 2 + (seed % 3) as u8;
        let mut p = Position::from_seed(Rules::with_players(players).unwrap(), seed);
        let mut bot: SearchBot<Position> = BotSpec::Random.build(seed);
        while let Some(action) = bot.choose(&p) {
            if p.moves_played().is_multiple_of(every) {
                out.push(p.clone());
            }
            p.play_unchecked(&action.to_move()).unwrap();
        }
        out.push(p);
    }
    out
}

#[test]
fn payment_table_is_as_counted_in_section_15_4() {
    let most = Kind::all().map(|k| payments(k).len()).max().unwrap();
    assert_eq!(most, PAYMENT_COUNT as usize);
    for k in Kind::all() {
        let table = payments(k);
        assert!(
            table
                .windows(2)
                .all(|w| (w[0].jokers(), w[0].codes()) < (w[1].jokers(), w[1].codes()))
        );
        assert!(
            table
                .iter()
                .all(|p| p.len() == usize::from(k.value().get() - 1))
        );
        // Each payment's action names it: its rank is found.
        for &payment in table {
            let mv = Move::Tile {
                kind: k,
                cell: Cell::new(47).unwrap(),
                payment,
            };
            assert_eq!(Action::from_move(&mv).map(Action::to_move), Some(mv));
        }
    }
}

#[test]
fn the_playout_plays_the_playout_actions() {
    for p in positions(6, 13) {
        let (mut fast, mut by_action) = (p.clone(), p);
        let (mut a, mut b) = (Rng::seed_from_u64(4), Rng::seed_from_u64(4));
        let applied = fast.playout(&mut a);
        let mut count = 0;
        while let Some(action) = by_action.playout_action(&mut b, &mut Vec::new()) {
            indigo_search::Game::apply(&mut by_action, action);
            count += 1;
        }
        assert_eq!((fast, applied), (by_action, count));
    }
}

#[test]
fn the_best_playout_puts_each_tile_where_it_joins_the_most_groups() {
    for p in positions(6, 13) {
        let mut rng = Rng::seed_from_u64(5);
        let mut end = p.clone();
        end.best_playout(&mut rng);
        assert!(end.is_over());
        let mut below = |n| indigo_search::below(&mut rng, n);
        let Some(mv) = p.playout_move_placing(&mut below, Placing::Grouping) else {
            continue;
        };
        assert!(p.is_legal(&mv), "{mv}");
        // Of every legal tile placement, one with the most shared neighbours.
        let garden = p.garden(p.to_move().unwrap());
        let shared = |mv: &Move| match *mv {
            Move::Tile { kind, cell, .. } => Some(garden.shared_neighbours(kind, cell)),
            _ => None,
        };
        let most = p.legal_moves().iter().filter_map(shared).max();
        assert_eq!(shared(&mv), most, "{mv}");
    }
}

#[test]
fn best_plays_the_grouping_playout_and_ismcts_the_plain_one() {
    let search = |spec: &str| spec.parse::<BotSpec>().unwrap().search_config::<Position>();
    let best = search("best:time=0.05,threads=2").unwrap();
    let ismcts = search("ismcts:time=0.05,threads=2").unwrap();
    assert_eq!(
        (best.playout_policy(), ismcts.playout_policy()),
        (PlayoutPolicy::Best, PlayoutPolicy::Plain)
    );
    // Queen's Garden keeps ISMCTS's exploration for `best`: only the playout differs.
    assert_eq!(Position::BEST_EXPLORATION, None);
    assert_eq!(
        (best.exploration().to_bits(), best.budget(), best.threads()),
        (
            IsmctsConfig::DEFAULT_EXPLORATION.to_bits(),
            ismcts.budget(),
            ismcts.threads()
        )
    );
    assert_eq!(
        ismcts.exploration().to_bits(),
        IsmctsConfig::DEFAULT_EXPLORATION.to_bits()
    );
    // The plain playout is the playout policy's moves, one at a time
    // (`the_playout_plays_the_playout_actions`); the grouping one plays other games.
    let p = Position::from_seed(Rules::with_players(2).unwrap(), 7);
    let (mut plain, mut grouping) = (p.clone(), p);
    plain.playout(&mut Rng::seed_from_u64(1));
    grouping.best_playout(&mut Rng::seed_from_u64(1));
    assert_ne!(plain, grouping);
}

#[test]
fn legal_actions_are_the_legal_moves_ascending() {
    for p in positions(12, 7) {
        let moves = p.legal_moves();
        let actions = p.legal_actions();
        assert_eq!(actions.len(), moves.len());
        assert!(actions.windows(2).all(|w| w[0] < w[1]), "not ascending");
        for (a, m) in actions.iter().zip(&moves) {
            assert_eq!(a.to_move(), *m);
            assert_eq!(Action::from_move(m), Some(*a));
            assert_eq!(Action::new(i64::from(a.index())), Ok(*a));
        }
        assert_eq!(p.turn() == Turn::Over, actions.is_empty());
    }
}

/// The legal sets kept by what they are read from are the lists themselves: for positions,
/// their determinizations (which hit the kept sets) and a move on from each (where chance
/// may have drawn new tiles), interleaved as a search walks them.
#[test]
fn kept_legal_sets_are_the_legal_actions() {
    let mut rng = Rng::seed_from_u64(4);
    let mut set = indigo_search::SortedActions::default();
    let mut buffer = Vec::new();
    let mut checked = 0;
    for p in positions(6, 3) {
        let info = p.information(p.to_move().unwrap_or(0));
        for _ in 0..3 {
            let mut q = Position::sample(&info, &mut rng);
            for _ in 0..2 {
                q.legal_set(&mut set);
                let fresh = q.legal_actions();
                let kept: Vec<Action> = (0..set.len()).filter_map(|k| set.nth(k)).collect();
                assert_eq!(kept, fresh, "{}", q.snapshot(false));
                checked += 1;
                let Some(action) = q.playout_action(&mut rng, &mut buffer) else {
                    break;
                };
                q.apply(action);
            }
        }
    }
    assert!(checked > 1000, "{checked} sets");
}

#[test]
fn applying_an_action_is_playing_its_move() {
    for p in positions(6, 11) {
        for a in p.legal_actions().into_iter().step_by(5) {
            let mut by_action = p.clone();
            indigo_search::Game::apply(&mut by_action, a);
            let mut by_move = p.clone();
            by_move.play(&a.to_move()).unwrap();
            assert_eq!(by_action, by_move);
        }
    }
}

#[test]
fn numbers_that_name_no_move_are_refused() {
    for n in [
        -1,
        i64::from(ACTION_COUNT),
        i64::from(ACTION_COUNT) + 7,
        1 << 40,
    ] {
        assert!(Action::new(n).is_err(), "{n}");
    }
    // A take choosing a slot for kind... with a choice digit for every kind of `bl` it is
    // still a move; a payment rank past a tree's single payment is not.
    let tree_rank_1 = crate::action::TAKE_COUNT + 1;
    assert!(Action::new(i64::from(tree_rank_1)).is_err());
    assert_eq!(Action::PASS.to_move(), Move::PASS);
}

#[test]
fn resampling_keeps_what_every_seat_knows_and_draws_the_rest() {
    let mut changed = 0;
    for (i, p) in positions(8, 9).into_iter().enumerate() {
        for seed in 0..5 {
            let mut rng = Rng::seed_from_u64(seed * 1000 + i as u64);
            let seat = (seed % u64::from(p.rules().players())) as u8;
            let sample = p.determinize(seat, &mut rng);
            for s in 0..p.rules().players() {
                assert_eq!(sample.information_string(s), p.information_string(s));
            }
            assert_eq!(sample.legal_moves(), p.legal_moves());
            assert_eq!(sample.tile_total(), 108);
            changed += usize::from(sample.bag().ne(p.bag()));
        }
    }
    assert!(changed > 100, "the bag was redrawn only {changed} times");
}

#[test]
fn a_seen_expansion_stays_where_it_was_seen() {
    // Play until some expansion has turned face up, then resample many times.
    let p = positions(3, 1)
        .into_iter()
        .find(|p| p.revealed() != 0 && !p.is_over())
        .unwrap();
    let order = p.expansion_order();
    for seed in 0..50 {
        let sample = p.determinize(0, &mut Rng::seed_from_u64(seed));
        let drawn = sample.expansion_order();
        for i in (0..36).filter(|i| p.revealed() >> i & 1 != 0) {
            assert_eq!(drawn[i], order[i]);
        }
    }
}

#[test]
fn returns_share_one_among_the_winners() {
    for p in positions(9, 1000).into_iter().filter(Position::is_over) {
        let r = indigo_search::Game::returns(&p);
        assert!((r.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        let winners = indigo_search::Game::winners(&p);
        for (s, &v) in r.iter().enumerate() {
            assert_eq!(v > 0.0, winners >> s & 1 == 1);
        }
    }
}

#[test]
fn bots_play_legal_moves_and_are_reproducible() {
    for spec in ["random", "greedy", "playout", "ismcts:30", "net:8"] {
        let spec: BotSpec = spec.parse().unwrap();
        let play = |seed: u64| {
            let mut p = Position::from_seed(Rules::with_players(2).unwrap(), seed);
            let mut bots: [SearchBot<Position>; 2] = [spec.build(seed), spec.build(seed + 1)];
            let mut moves = Vec::new();
            while let Turn::Player(seat) = p.turn() {
                let a = bots[usize::from(seat)].choose(&p).unwrap();
                assert!(p.is_legal(&a.to_move()), "{spec} chose {}", a.to_move());
                moves.push(a);
                p.play(&a.to_move()).unwrap();
            }
            moves
        };
        assert_eq!(play(3), play(3), "{spec}");
    }
}

#[test]
fn self_play_keeps_the_batch_games_with_a_sample_per_move() {
    use crate::observation::OBSERVATION_SIZE;
    use indigo_search::{Batch, IsmctsConfig, Samples};
    use std::sync::atomic::{AtomicBool, AtomicU64};
    let rules = Rules::with_players(3).unwrap();
    let specs = vec![
        BotSpec::Ismcts(IsmctsConfig::simulations(20)),
        BotSpec::Greedy,
        BotSpec::Random,
    ];
    let batch = Batch::new(rules, specs, None, 9).unwrap();
    let (done, cancel) = (AtomicU64::new(0), AtomicBool::new(false));
    let outcomes = batch.run(3..5, 1, &done, &cancel).unwrap();
    let games = batch.self_play(3..5, 1, &done, &cancel).unwrap();
    for ((index, played), outcome) in (3..5).zip(&games).zip(&outcomes) {
        assert_eq!(played.outcome, *outcome);
        let record = crate::self_play_record(rules, played, &batch.seats(index), index);
        assert_eq!(record["game"], index);
        assert_eq!(record["players_names"][1], "greedy");
        let game = crate::read_record_value(&record).unwrap();
        let s = &played.samples;
        assert_eq!(s.len(), game.moves().len());
        let mut replay = Position::from_seed(rules, played.seed);
        for (row, mv) in game.moves().iter().enumerate() {
            let seat = replay.to_move().unwrap();
            assert_eq!((s.ply[row] as usize, s.seat[row]), (row, seat));
            let mut observation = vec![0f32; OBSERVATION_SIZE];
            replay.observation(seat, &mut observation);
            assert_eq!(
                s.observations[row * OBSERVATION_SIZE..(row + 1) * OBSERVATION_SIZE],
                observation
            );
            let legal: Vec<u32> = replay.legal_actions().iter().map(|a| a.index()).collect();
            let listed = s.legal.offsets[row] as usize..s.legal.offsets[row + 1] as usize;
            assert_eq!(s.legal.actions[listed], legal);
            assert_eq!(s.action[row], Action::from_move(mv).unwrap().index());
            let visits = s.visit_offsets[row] as usize..s.visit_offsets[row + 1] as usize;
            assert_eq!(s.searched[row], seat == 0);
            let total: u32 = s.visit_counts[visits.clone()].iter().sum();
            assert_eq!(total, if seat == 0 { 20 } else { 0 });
            assert!(s.visit_actions[visits].iter().all(|a| legal.contains(a)));
            let winners = game.position().winners();
            let share = if winners.contains(&seat) {
                1.0 / winners.len() as f32
            } else {
                0.0
            };
            assert!((s.outcome[row] - share).abs() < 1e-6);
            assert_eq!(
                u32::from(s.points[row]),
                game.position().scores()[usize::from(seat)]
            );
            replay.play(mv).unwrap();
        }
    }
    let parts: Vec<&Samples> = games.iter().map(|g| &g.samples).collect();
    let all = Samples::concat(&parts);
    assert_eq!(all.len(), parts.iter().map(|p| p.len()).sum::<usize>());
    assert_eq!(all.legal.offsets.len(), all.len() + 1);
    assert_eq!(
        *all.legal.offsets.last().unwrap() as usize,
        all.legal.actions.len()
    );
    assert_eq!(
        *all.visit_offsets.last().unwrap() as usize,
        all.visit_actions.len()
    );
}

/// The vectorised games step Queen's Garden as separate positions do: each game's legal
/// actions as a list row, its observation, its rewards at the end and its next episode after
/// it; an action outside the lists steps no game.
#[test]
fn vector_games_step_as_separate_positions() {
    use std::sync::atomic::AtomicBool;

    use indigo_search::{
        Contents, Encoded as _, Legal, LegalLists, Observations, Outputs, VectorError, below,
        episode_seed,
    };

    use crate::observation::OBSERVATION_SIZE;
    use crate::position::Utility;

    let (rules, n) = (Rules::with_players(3).unwrap(), 2);
    let mut games = crate::VectorGames::new(rules, n, Utility::Points, 5);
    let stop = AtomicBool::new(false);
    let mut observations = vec![0.0; n * OBSERVATION_SIZE];
    let (mut rewards, mut terminations, mut to_play) =
        (vec![0.0; n * 3], vec![false; n], vec![0; n]);
    let mut lists = LegalLists::default();
    let mut mirror: Vec<Position> = (0..n)
        .map(|env| Position::from_seed(rules, episode_seed(5, n, env, 0)))
        .collect();
    let mut ended = vec![false; n];
    let mut rng = Rng::seed_from_u64(3);
    let mut finished = 0;
    while finished < 3 {
        let actions: Vec<i64> = mirror
            .iter()
            .map(|p| {
                let legal = p.legal_actions();
                legal
                    .get(below(&mut rng, legal.len().max(1)))
                    .map_or(0, |a| i64::from(a.index()))
            })
            .collect();
        let mut out = Outputs {
            observations: Observations::F32(&mut observations),
            contents: Contents::Unknown,
            legal: Legal::Lists(&mut lists),
            rewards: &mut rewards,
            terminations: &mut terminations,
            to_play: &mut to_play,
        };
        games.step(&actions, &mut out, &stop).unwrap();
        for env in 0..n {
            let episode = games.episodes()[env];
            if ended[env] {
                mirror[env] = Position::from_seed(rules, episode_seed(5, n, env, episode));
            } else {
                let action = Action::new(actions[env]).unwrap();
                mirror[env].play_unchecked(&action.to_move()).unwrap();
            }
            let p = &mirror[env];
            ended[env] = !ended[env] && p.is_over();
            finished += usize::from(ended[env]);
            assert_eq!(terminations[env], ended[env]);
            let row = &lists.actions[lists.offsets[env] as usize..lists.offsets[env + 1] as usize];
            let want: Vec<u32> = p.legal_actions().iter().map(|a| a.index()).collect();
            assert_eq!(row, &want[..]);
            let viewer = to_play[env] as u8;
            let mut obs = vec![0.0; OBSERVATION_SIZE];
            p.observation(viewer, &mut obs);
            assert_eq!(
                &observations[env * OBSERVATION_SIZE..][..OBSERVATION_SIZE],
                &obs[..]
            );
            let want = if ended[env] {
                p.returns(Utility::Points)
            } else {
                vec![0.0; 3]
            };
            let got: Vec<f64> = rewards[env * 3..][..3]
                .iter()
                .map(|&r| f64::from(r))
                .collect();
            assert_eq!(got, want);
        }
    }
    let mut masks = vec![false; n * Position::ACTION_COUNT];
    let mut out = Outputs {
        observations: Observations::F32(&mut observations),
        contents: Contents::Unknown,
        legal: Legal::Masks(&mut masks),
        rewards: &mut rewards,
        terminations: &mut terminations,
        to_play: &mut to_play,
    };
    let before = games.episodes();
    assert_eq!(
        games.step(&[0, 0], &mut out, &stop),
        Err(VectorError::LegalForm)
    );
    let mut out = Outputs {
        observations: Observations::U8(&mut vec![0; n * OBSERVATION_SIZE]),
        contents: Contents::Unknown,
        legal: Legal::Lists(&mut lists),
        rewards: &mut rewards,
        terminations: &mut terminations,
        to_play: &mut to_play,
    };
    assert_eq!(
        games.step(&[0, 0], &mut out, &stop),
        Err(VectorError::NotCompact)
    );
    assert_eq!(games.episodes(), before);
}

#[test]
fn the_shipped_network_is_value_only_for_two_players_and_sparse_is_dense() {
    use indigo_search::{Encoded as _, Evaluator as _, NetEvaluator, Network};
    let network = Network::from_bytes(Position::DEFAULT_NETWORK).unwrap();
    network.check_game::<Position>(2).unwrap();
    assert!(!network.has_policy());
    assert!(network.check_game::<Position>(4).is_err());
    let leaves: Vec<Position> = positions(4, 7)
        .into_iter()
        .filter(|p| p.players() == 2)
        .collect();
    let sparse = NetEvaluator::new(&network).evaluate(&leaves).unwrap();
    let dense = NetEvaluator::new(&network)
        .dense()
        .evaluate(&leaves)
        .unwrap();
    assert_eq!(sparse.priors_shape, [leaves.len(), 0]);
    for (s, d) in sparse.values.iter().zip(&dense.values) {
        assert!((s - d).abs() < 1e-5, "{s} {d}");
    }
}

#[test]
fn puct_self_play_in_flight_plays_the_games_of_one_at_a_time_in_fewer_larger_calls() {
    use indigo_search::{
        Encoded as _, Evaluator as _, FnEvaluator, NetEvaluator, Network, Puct, PuctConfig,
        game_seed, mix, puct_self_play,
    };
    let network = Network::from_bytes(Position::DEFAULT_NETWORK).unwrap();
    // Noise and a temperature: each search's own draws decide its games.
    let config = PuctConfig::new(8, 4, 1.5, 0.3, 0.25, 1.0).unwrap();
    let start = |index: u64| {
        let seed = game_seed(3, index);
        let position = Position::from_seed(Rules::with_players(2).unwrap(), seed);
        (position, seed, Puct::new(config, mix(seed, 1)))
    };
    let mut runs = Vec::new();
    for in_flight in [1, 3] {
        let mut calls = Vec::new();
        let mut net = NetEvaluator::new(&network);
        let mut evaluator = FnEvaluator(|leaves: &[Position]| {
            calls.push(leaves.len());
            match net.evaluate(leaves) {
                Ok(evaluation) => evaluation,
            }
        });
        let played = puct_self_play(2..5, in_flight, start, &mut evaluator).unwrap();
        let games: Vec<_> = played
            .into_iter()
            .map(|g| (g.seed, g.actions, g.outcome, g.samples))
            .collect();
        runs.push((games, calls));
    }
    let [(one, one_calls), (three, three_calls)] = &runs[..] else {
        unreachable!()
    };
    assert_eq!(three, one);
    assert!(
        one.iter()
            .all(|g| g.1.len() > 40 && g.3.searched.iter().all(|&s| s))
    );
    assert_eq!(one[0].0, game_seed(3, 2));
    assert!(one_calls.iter().all(|&n| n <= 4), "{one_calls:?}");
    assert!(three_calls.iter().any(|&n| n > 4), "{three_calls:?}");
    assert!(
        3 * three_calls.len() < 2 * one_calls.len(),
        "{three_calls:?}"
    );
}

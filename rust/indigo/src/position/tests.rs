//! Rule tests: the worked examples of docs/spec/RULES.md section 10, the gate restriction, the
//! centre order, and invariants over many random games.

use crate::board::{Cell, ROUTE_CELL_COUNT};
use crate::gem::Gem;
use crate::moves::Move;
use crate::position::placement::apply_reversed;
use crate::position::{EmptyOrder, GEM_TOTAL, IllegalMove, Position};
use crate::rng::box_in_type_order;
use crate::rules::Rules;
use crate::testing::all_configurations;
use crate::tile::{Rotation, TILE_TOTAL, TileType};
use crate::trace::{PathEnd, PathRecorder};
use indigo_search::{Bot, RandomBot};

fn mv(text: &str) -> Move {
    text.parse().unwrap()
}

/// A pile whose front is `prefix`, completed with the rest of the box.
fn pile_starting(prefix: &[u8]) -> Vec<TileType> {
    let mut rest: Vec<TileType> = box_in_type_order().to_vec();
    let mut pile = Vec::with_capacity(TILE_TOTAL);
    for &t in prefix {
        let i = rest.iter().position(|&r| r as u8 == t).unwrap();
        pile.push(rest.remove(i));
    }
    pile.extend(rest);
    pile
}

/// With hands of one, move `i` lays `pile[i]`: a position that will be dealt `moves` in order.
fn position_for(players: u8, moves: &[&str]) -> Position {
    let prefix: Vec<u8> = moves.iter().map(|m| mv(m).tile as u8).collect();
    Position::new(Rules::new(players, 1).unwrap(), &pile_starting(&prefix)).unwrap()
}

fn gem_at(position: &Position, q: i32, r: i32, edge: u8) -> Option<Gem> {
    let cell = Cell::new(q, r).unwrap();
    position
        .gems()
        .find(|&(c, e, _)| c == cell && e == edge)
        .map(|(_, _, g)| g)
}

#[test]
fn example_amber_to_a_gate_with_four_players() {
    let moves = ["4@0:0,-3", "1@0:-1,-3"];
    let mut p = position_for(4, &moves);
    p.play(mv(moves[0])).unwrap();
    assert_eq!(gem_at(&p, 0, -3, 5), Some(Gem::Amber));
    assert_eq!(gem_at(&p, 0, -4, 3), None);
    let mut recorder = PathRecorder::default();
    p.play_traced(mv(moves[1]), &mut recorder).unwrap();
    assert_eq!(recorder.paths.len(), 1);
    assert_eq!(
        recorder.paths[0].end,
        PathEnd::Collected {
            gate: 5,
            owners: 0b1100
        }
    );
    assert_eq!(p.scores(), [0, 0, 1, 1]);
    assert_eq!(p.collected()[2], [1, 0, 0]);
    assert_eq!(p.collected()[3], [1, 0, 0]);
    assert_eq!(p.gems_left(), GEM_TOTAL - 1);
}

#[test]
fn example_gate_restriction() {
    let p = position_for(2, &["4@0:-1,-3"]);
    let gate5 = Cell::new(-1, -3).unwrap();
    assert_eq!(
        p.check(mv("4@0:-1,-3")),
        Err(IllegalMove::JoinsGateExits {
            cell: gate5,
            gate: 5
        })
    );
    assert_eq!(p.check(mv("4@0:1,-4")), Ok(()));
    assert!(matches!(
        p.check(mv("4@1:1,-4")),
        Err(IllegalMove::JoinsGateExits { gate: 0, .. })
    ));
}

#[test]
fn gate_restriction_for_every_gate_cell_and_rotation() {
    for t in TileType::ALL {
        let p = Position::new(Rules::new(2, 1).unwrap(), &pile_starting(&[t as u8])).unwrap();
        for k in 0..6u8 {
            for j in 1..=3 {
                let cell = Cell::gate_cell(k, j);
                for rho in 0..6 {
                    let m = Move {
                        tile: t,
                        rotation: Rotation::new(rho).unwrap(),
                        cell,
                    };
                    let joins = m
                        .paths()
                        .contains(&(k.min((k + 1) % 6), k.max((k + 1) % 6)));
                    assert_eq!(p.check(m).is_err(), joins, "{m}");
                    let listed = p.legal_moves().contains(&m.canonical());
                    assert_eq!(listed, !joins, "{m}");
                }
                // Some rotation is always legal.
                assert!((0..6).any(|rho| {
                    p.check(Move {
                        tile: t,
                        rotation: Rotation::new(rho).unwrap(),
                        cell,
                    })
                    .is_ok()
                }));
            }
        }
    }
}

#[test]
fn example_centre_order() {
    let cells = ["0,-1", "1,-1", "1,0", "0,1", "-1,1", "-1,0"];
    let moves: Vec<String> = cells.iter().map(|c| format!("1@0:{c}")).collect();
    let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
    let mut p = position_for(2, &refs);
    for (i, m) in refs.iter().enumerate() {
        p.play(mv(m)).unwrap();
        assert_eq!(p.centre().len(), 5 - i);
        let cell = mv(m).cell;
        // Straight tile: the gem entering from the centre rests at the outward edge.
        let outward = (0..6u8)
            .find(|&e| cell.neighbour((e + 3) % 6) == Some(Cell::CENTRE))
            .unwrap();
        let want = if i < 5 { Gem::Emerald } else { Gem::Sapphire };
        assert_eq!(gem_at(&p, cell.q(), cell.r(), outward), Some(want), "{m}");
    }
}

#[test]
fn example_collision() {
    let moves = ["1@0:0,-1", "1@0:0,-3", "1@0:0,-2"];
    let mut p = position_for(2, &moves);
    p.play(mv(moves[0])).unwrap();
    assert_eq!(gem_at(&p, 0, -1, 0), Some(Gem::Emerald));
    p.play(mv(moves[1])).unwrap();
    assert_eq!(gem_at(&p, 0, -3, 3), Some(Gem::Amber));
    let mut recorder = PathRecorder::default();
    p.play_traced(mv(moves[2]), &mut recorder).unwrap();
    assert_eq!(p.removed(), 2);
    assert_eq!(p.gems().filter(|&(_, _, g)| g != Gem::Amber).count(), 0);
    assert_eq!(
        p.centre(),
        &[
            Gem::Emerald,
            Gem::Emerald,
            Gem::Emerald,
            Gem::Emerald,
            Gem::Sapphire
        ]
    );
    assert_eq!(recorder.paths.len(), 2);
    assert_eq!(recorder.paths[0].end, PathEnd::Collided(1));
    assert_eq!(recorder.paths[1].end, PathEnd::Collided(0));
}

#[test]
fn example_u_turn() {
    let moves = ["4@1:3,-3", "2@0:3,-4", "1@0:4,-3"];
    let mut p = position_for(2, &moves);
    p.play(mv(moves[0])).unwrap();
    assert_eq!(gem_at(&p, 3, -3, 0), Some(Gem::Amber));
    p.play(mv(moves[1])).unwrap();
    assert_eq!(gem_at(&p, 4, -4, 3), Some(Gem::Amber));
    p.play(mv(moves[2])).unwrap();
    assert_eq!(gem_at(&p, 4, -3, 3), Some(Gem::Amber));
    assert_eq!(gem_at(&p, 4, -4, 3), None);
}

#[test]
fn example_release_meets_incoming_gem() {
    let moves = ["1@0:0,-3", "1@0:0,-2", "1@0:0,-1"];
    let mut p = position_for(2, &moves);
    p.play(mv(moves[0])).unwrap();
    p.play(mv(moves[1])).unwrap();
    assert_eq!(gem_at(&p, 0, -2, 3), Some(Gem::Amber));
    let mut recorder = PathRecorder::default();
    p.play_traced(mv(moves[2]), &mut recorder).unwrap();
    assert_eq!(p.removed(), 2);
    assert_eq!(p.gems().count(), 5); // the five other corner ambers
    // The amber moves first and stops facing the centre; the released emerald then meets it.
    let amber = &recorder.paths[0];
    assert_eq!(
        (amber.gem, amber.start),
        (Gem::Amber, (Cell::new(0, -2).unwrap(), 3))
    );
    assert_eq!(amber.steps, [(Cell::new(0, -1).unwrap(), 0, 3)]);
    assert_eq!(amber.end, PathEnd::Collided(1));
    assert_eq!(recorder.paths[1].gem, Gem::Emerald);
    assert_eq!(recorder.paths[1].end, PathEnd::Collided(0));
    assert_eq!(recorder.paths.len(), 2);
    assert_eq!(p.centre().len(), 5);
}

#[test]
fn hands_are_dealt_in_seat_order_and_refilled() {
    let pile = pile_starting(&[4, 3, 0, 2, 1, 3]);
    let p = Position::new(Rules::new(3, 2).unwrap(), &pile).unwrap();
    // Round one: seats 0, 1, 2 get 4, 3, 0; round two: 2, 1, 3.
    let hand = |s| p.hand(s).map(|t| t as u8).collect::<Vec<_>>();
    assert_eq!(
        (hand(0), hand(1), hand(2)),
        (vec![2, 4], vec![1, 3], vec![0, 3])
    );
    assert_eq!(p.pile_left(), 48);
}

#[test]
fn pile_must_be_the_box() {
    let mut pile = box_in_type_order().to_vec();
    pile[0] = TileType::Bends;
    assert!(Position::new(Rules::new(2, 1).unwrap(), &pile).is_err());
    assert!(Position::new(Rules::new(2, 1).unwrap(), &pile[..53]).is_err());
}

#[test]
fn random_games_keep_the_invariants() {
    for (c, rules) in all_configurations().into_iter().enumerate() {
        for g in 0..150u64 {
            let seed = c as u64 * 1000 + g;
            let mut p = Position::new(rules, &crate::rng::shuffled_pile(seed)).unwrap();
            let mut bot = RandomBot::new(seed);
            let mut collected_once = 0u32;
            while let Some(m) = bot.choose(&p).map(crate::Action::to_move) {
                assert!(p.placed() < 54);
                let mut reversed = p;
                let mut recorder = PathRecorder::default();
                p.play_traced(m, &mut recorder).unwrap();
                // The order movers are processed in does not change the result.
                apply_reversed(&mut reversed, m);
                assert_eq!(p, reversed, "seed {seed}, move {m}");
                // Every gem the recorder says rests is where it says, and nothing else moved.
                for path in &recorder.paths {
                    if let PathEnd::Rested(cell, edge) = path.end {
                        assert!(
                            p.gems().any(|g| g == (cell, edge, path.gem)),
                            "seed {seed}, move {m}"
                        );
                    }
                }
                collected_once += recorder
                    .paths
                    .iter()
                    .filter(|path| matches!(path.end, PathEnd::Collected { .. }))
                    .count() as u32;
                assert_eq!(
                    u32::from(p.gems_left()) + collected_once + u32::from(p.removed()),
                    12
                );
            }
            assert!(p.is_over());
            assert_eq!(p.gems().count(), 0, "seed {seed}");
            assert!(p.centre().is_empty());
            assert!(p.placed() <= 54);
            assert_eq!(collected_once + u32::from(p.removed()), 12);
            assert_eq!(p.removed() % 2, 0);
            let points: Vec<u16> = p
                .collected()
                .iter()
                .map(|c| u16::from(c[0]) + 2 * u16::from(c[1]) + 3 * u16::from(c[2]))
                .collect();
            assert_eq!(points, p.scores());
            assert_ne!(p.winners(), 0);
        }
    }
}

#[test]
fn gems_never_rest_facing_the_centre_or_an_empty_arrow() {
    for seed in 0..300u64 {
        let mut p =
            Position::new(Rules::new(2, 1).unwrap(), &crate::rng::shuffled_pile(seed)).unwrap();
        let mut bot = RandomBot::new(seed);
        while let Some(m) = bot.choose(&p).map(crate::Action::to_move) {
            p.play(m).unwrap();
            for (cell, edge, _) in p.gems() {
                // Only an empty route cell: never the centre, a corner, a tile or the rim.
                let across = cell.neighbour(edge).expect("a gem at the rim is collected");
                assert!(
                    across.is_route() && p.is_empty(across),
                    "seed {seed}: {cell:?} edge {edge}"
                );
            }
        }
    }
}

#[test]
fn legal_moves_are_distinct_sorted_and_all_playable() {
    let mut p = Position::new(Rules::new(3, 2).unwrap(), &crate::rng::shuffled_pile(5)).unwrap();
    let mut bot = RandomBot::new(5);
    while !p.is_over() {
        let moves = p.legal_moves();
        assert!(!moves.is_empty());
        let mut sorted = moves.clone();
        sorted.sort_by_key(|m| (m.tile, m.rotation, m.cell.axial()));
        sorted.dedup();
        assert_eq!(sorted, moves);
        for m in &moves {
            assert_eq!(*m, m.canonical());
            assert!(p.check(*m).is_ok());
        }
        p.play(bot.choose(&p).map(crate::Action::to_move).unwrap())
            .unwrap();
    }
}

#[test]
fn illegal_moves_change_nothing() {
    let mut p = Position::new(Rules::new(2, 1).unwrap(), &crate::rng::shuffled_pile(9)).unwrap();
    let first = p.legal_moves()[0];
    p.play(first).unwrap();
    let before = p;
    let held = p.hand(p.to_move().unwrap()).next().unwrap();
    let other = TileType::ALL.into_iter().find(|&t| t != held).unwrap();
    let r0 = Rotation::new(0).unwrap();
    for bad in [
        Move {
            tile: held,
            rotation: r0,
            cell: first.cell,
        },
        Move {
            tile: held,
            rotation: r0,
            cell: Cell::CENTRE,
        },
        Move {
            tile: held,
            rotation: r0,
            cell: Cell::corner(2),
        },
        Move {
            tile: other,
            rotation: r0,
            cell: Cell::new(1, 1).unwrap(),
        },
    ] {
        assert!(p.play(bad).is_err());
        assert_eq!(p, before);
    }
}

#[test]
fn a_finished_game_accepts_no_move() {
    let mut p = Position::new(Rules::new(2, 1).unwrap(), &crate::rng::shuffled_pile(3)).unwrap();
    let mut bot = RandomBot::new(3);
    while let Some(m) = bot.choose(&p).map(crate::Action::to_move) {
        p.play(m).unwrap();
    }
    assert_eq!(p.to_move(), None);
    assert!(p.legal_moves().is_empty());
    assert_eq!(p.check(mv("0@0:1,1")), Err(IllegalMove::GameOver));
}

#[test]
fn a_reset_position_equals_a_new_one() {
    use rand::SeedableRng as _;
    for rules in [Rules::new(2, 1).unwrap(), Rules::new(4, 2).unwrap()] {
        let mut position = Position::set_up(rules, &crate::rng::pcg_pile(7));
        let mut rng = indigo_search::Rng::seed_from_u64(7);
        position.play_out(&mut rng);
        assert!(position.to_move().is_none());
        let pile = crate::rng::pcg_pile(8);
        position.reset(rules, &pile);
        assert_eq!(position.empty_order.slots, EmptyOrder::ALL.slots);
        assert_eq!(position.empty_order.at, EmptyOrder::ALL.at);
        assert!(position == Position::set_up(rules, &pile));
        assert!(position == Position::new(rules, &pile).unwrap());
    }
}

#[test]
fn the_policy_list_of_empty_cells_follows_every_placement() {
    use rand::SeedableRng as _;
    for (c, rules) in all_configurations().into_iter().enumerate() {
        for seed in 0..20 {
            let mut p = Position::new(rules, &crate::rng::pcg_pile(seed)).unwrap();
            let mut rng = indigo_search::Rng::seed_from_u64(seed + 100 * c as u64);
            let mut bot = RandomBot::new(seed);
            // The policy and another bot in turn: the list is kept by every placement.
            while let Some(m) = if p.placed().is_multiple_of(3) {
                bot.choose(&p).map(crate::Action::to_move)
            } else {
                crate::policy::random_placement(&p, &mut rng)
            } {
                p.play(m).unwrap();
                let (order, placed) = (&p.empty_order, usize::from(p.placed()));
                let mut set = 0u64;
                for (i, &slot) in order
                    .slots
                    .iter()
                    .enumerate()
                    .take(ROUTE_CELL_COUNT)
                    .skip(placed)
                {
                    assert_eq!(usize::from(order.at[usize::from(slot)]), i);
                    set |= 1 << slot;
                }
                assert_eq!(set, p.empty_slots());
            }
            assert!(p.is_over());
        }
    }
}

#[test]
fn a_playout_is_the_policy_placement_after_placement() {
    use crate::policy::random_placement;
    use indigo_search::Rng;
    use rand::{Rng as _, SeedableRng as _};
    for (c, rules) in all_configurations().into_iter().enumerate() {
        for seed in 0..40u64 {
            // Starts: the opening, and positions after moves of another bot, some past the
            // pile's end; every third a determinization of the mover's information.
            let mut start = Position::new(rules, &crate::rng::pcg_pile(seed)).unwrap();
            let mut bot = RandomBot::new(seed);
            for _ in 0..seed % 4 * 16 {
                if let Some(m) = bot.choose(&start).map(crate::Action::to_move) {
                    start.play(m).unwrap();
                }
            }
            let mut rng = Rng::seed_from_u64(seed);
            if seed % 3 == 2
                && let Some(seat) = start.to_move()
            {
                start = start.information(seat).sample(&mut rng);
            }
            // The same seat generators two ways: the playout, and the checked moves of the
            // policy one at a time.
            let seats: [Rng; 4] =
                std::array::from_fn(|s| Rng::seed_from_u64(seed * 8 + s as u64 + 100 * c as u64));
            let (mut fast, mut fast_rngs) = (start, seats.clone());
            let placements = fast.play_out(&mut fast_rngs);
            let (mut slow, mut slow_rngs) = (start, seats);
            let mut moves = 0;
            while let Some(seat) = slow.to_move() {
                let m = random_placement(&slow, &mut slow_rngs[usize::from(seat)]).unwrap();
                slow.play(m).unwrap();
                moves += 1;
            }
            assert!(fast == slow, "{rules:?} seed {seed}: the two ends differ");
            assert_eq!(placements, moves);
            for (f, s) in fast_rngs.iter_mut().zip(&mut slow_rngs) {
                assert_eq!(f.next_u64(), s.next_u64());
            }
        }
    }
}

#[test]
fn every_position_of_random_games_reads_back_from_its_text() {
    for (c, rules) in all_configurations().into_iter().enumerate() {
        for g in 0..20u64 {
            let seed = c as u64 * 100 + g;
            let mut p = Position::new(rules, &crate::rng::shuffled_pile(seed)).unwrap();
            let mut bot = RandomBot::new(seed);
            loop {
                let text = p.to_text();
                let read = Position::from_text(&text, seed);
                assert_eq!(read.map(|r| r.to_text()), Ok(text), "seed {seed}");
                let Some(m) = bot.choose(&p).map(crate::Action::to_move) else {
                    break;
                };
                p.play(m).unwrap();
            }
        }
    }
}

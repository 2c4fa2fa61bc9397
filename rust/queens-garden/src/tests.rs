//! The worked examples of docs/spec/QUEENS_GARDEN.md section 16, built directly, and the seeded set-up
//! against CPython.

use std::sync::Arc;

use crate::garden::AreaState;
use crate::geometry::{Area, Cell};
use crate::kind::Kind;
use crate::moves::Move;
use crate::position::{
    Chance, DisplayExpansion, IllegalMove, Position, RefillError, StackView, seeded_setup,
};
use crate::record::read_record_value;
use crate::rules::{Jokers, Rules};
use crate::{Game, PlacementError};

fn k(name: &str) -> Kind {
    name.parse().unwrap()
}

pub(crate) fn kinds(names: &str) -> Vec<Kind> {
    names.split_whitespace().map(k).collect()
}

fn c(name: &str) -> Cell {
    name.parse().unwrap()
}

fn mv(text: &str) -> Move {
    Move::parse(text).unwrap()
}

fn strings(moves: &[Move]) -> Vec<String> {
    moves.iter().map(ToString::to_string).collect()
}

fn rules(players: u8) -> Rules {
    Rules::with_players(players).unwrap()
}

/// A 2-player position in round 1 with the kind-order bag and expansions and no refills.
fn position() -> Position {
    let bag: Vec<Kind> = Kind::all().flat_map(|k| [k, k, k]).collect();
    let expansions: Vec<Kind> = Kind::all().collect();
    Position::new(rules(2), &bag, &expansions, Chance::Listed(Arc::from([]))).unwrap()
}

/// The bag with `front` first and the rest of the tiles in kind order.
fn bag_starting(front: &[Kind]) -> Vec<Kind> {
    let mut rest: Vec<Kind> = Kind::all().flat_map(|k| [k, k, k]).collect();
    for f in front {
        let i = rest.iter().position(|x| x == f).unwrap();
        rest.remove(i);
    }
    front.iter().copied().chain(rest).collect()
}

#[test]
fn seeded_setup_matches_cpython() {
    // r = random.Random(2026); bag = [k for k in range(36) for _ in range(3)]; r.shuffle(bag)
    // exp = list(range(36)); r.shuffle(exp)
    let bag = [
        15, 19, 0, 31, 32, 30, 27, 6, 29, 29, 22, 14, 34, 35, 32, 8, 24, 28, 20, 11, 5, 33, 7, 32,
        7, 6, 15, 17, 26, 1, 35, 29, 2, 21, 2, 28, 13, 34, 33, 16, 30, 22, 33, 5, 11, 18, 17, 12,
        24, 25, 27, 2, 10, 11, 23, 8, 1, 9, 9, 20, 7, 30, 18, 1, 13, 6, 19, 28, 12, 22, 3, 14, 3,
        34, 16, 15, 14, 10, 16, 8, 35, 31, 0, 19, 4, 12, 4, 3, 26, 0, 10, 18, 25, 20, 31, 23, 24,
        17, 23, 26, 25, 9, 4, 27, 21, 21, 13, 5,
    ];
    let expansions = [
        34, 27, 5, 18, 35, 0, 28, 20, 4, 22, 32, 11, 6, 2, 7, 8, 30, 19, 3, 14, 10, 9, 1, 21, 17,
        13, 25, 15, 26, 24, 33, 29, 31, 16, 12, 23,
    ];
    let (got_bag, got_expansions) = seeded_setup(2026);
    assert_eq!(got_bag.map(Kind::id), bag);
    assert_eq!(got_expansions.map(Kind::id), expansions);
}

#[test]
fn seeded_refills_match_cpython() {
    // t = sorted tiles; random.Random(2026 + (k + 1) * 2**64).shuffle(t) for k = 0, 1
    let tiles = [0u8, 0, 5, 7, 7, 9, 20, 21, 21, 30, 33, 35];
    let want = [
        [0u8, 7, 9, 5, 21, 35, 20, 21, 30, 33, 7, 0],
        [7, 0, 9, 21, 21, 5, 0, 33, 35, 20, 7, 30],
    ];
    for (index, want) in want.iter().enumerate() {
        let mut out = [0u8; 12];
        Chance::Seeded(2026)
            .refill(index, &tiles, &mut out)
            .unwrap();
        assert_eq!(&out, want);
    }
}

/// The game of example 16.1: slot 0 is `lg1`, the bag starts as shown.
fn example_16_1_game() -> Game {
    let bag = bag_starting(&kinds("bl1 bl2 bl4 ye2 ye2 lg2 lg1 dp5 bl5 ye6 dg3 lp4"));
    let mut expansions = vec![k("lg1")];
    expansions.extend(Kind::all().filter(|&x| x != k("lg1")));
    Game::new(rules(2), &bag, &expansions, Vec::new()).unwrap()
}

/// 16.1 Acquire and display flow: `take bl`, then either copy of `ye2`.
#[test]
fn example_16_1_acquire_and_display_flow() {
    let mut game = example_16_1_game();
    let top = |g: &Game| g.position().stack().unwrap();
    assert_eq!(top(&game).tiles, kinds("bl1 bl2 bl4 ye2"));

    game.play(&mv("take bl")).unwrap();
    let p = game.position();
    assert_eq!(
        p.storage(0).tiles().collect::<Vec<_>>(),
        kinds("bl1 bl2 bl4")
    );
    assert_eq!(
        p.display(),
        [DisplayExpansion::Down {
            slot: 0,
            tiles: kinds("ye2")
        }]
    );
    assert_eq!(
        p.stack(),
        Some(StackView {
            slot: 1,
            tiles: kinds("ye2 lg1 lg2 dp5"),
            below: 3
        })
    );
    // The snapshot of docs/spec/QG_FORMATS.md, legal list included.
    let legal = strings(&p.legal_moves());
    assert_eq!(
        legal,
        [
            "take ye ye2@0",
            "take ye ye2@1",
            "take lg",
            "take dp",
            "take 1",
            "take 2 ye2@0",
            "take 2 ye2@1",
            "take 5",
            "buy a0",
            "buy a1",
            "buy a2",
            "buy a3",
            "buy a4",
            "buy a5",
            "pass"
        ]
    );
    let mut other = game.clone();
    other.play(&mv("take 2 ye2@1")).unwrap();
    assert_eq!(
        other.position().display(),
        [
            DisplayExpansion::Down {
                slot: 0,
                tiles: kinds("ye2")
            },
            DisplayExpansion::Down {
                slot: 1,
                tiles: kinds("lg1 dp5")
            },
        ]
    );
}

/// 16.1 Copy choices: after `take 2 ye2@0`, `lg1` is at slots 0 (face up) and 1 (a tile).
#[test]
fn example_16_1_copy_choices() {
    let mut game = example_16_1_game();
    let top = |g: &Game| g.position().stack().unwrap();
    game.play(&mv("take bl")).unwrap();
    game.play(&mv("take 2 ye2@0")).unwrap();
    let p = game.position();
    assert_eq!(p.storage(1).tiles().collect::<Vec<_>>(), kinds("ye2 lg2"));
    assert_eq!(
        p.display(),
        [
            DisplayExpansion::Up {
                slot: 0,
                kind: k("lg1")
            },
            DisplayExpansion::Down {
                slot: 1,
                tiles: kinds("ye2 lg1 dp5")
            },
        ]
    );
    assert_eq!(top(&game).slot, 2);
    assert_eq!(top(&game).tiles, kinds("bl5 ye6 dg3 lp4"));

    let legal = strings(&game.legal_moves());
    assert!(legal.contains(&"take 1 lg1@0".to_owned()));
    assert!(legal.contains(&"take 1 lg1@1".to_owned()));
    for bad in ["take 1", "take 1 lg1@2"] {
        assert!(!legal.contains(&bad.to_owned()));
        assert!(game.position().check(&mv(bad)).is_err(), "{bad}");
    }
    let mut expansion = game.clone();
    expansion.play(&mv("take 1 lg1@0")).unwrap();
    assert_eq!(
        expansion
            .position()
            .storage(0)
            .expansions()
            .collect::<Vec<_>>(),
        [k("lg1")]
    );
    game.play(&mv("take 1 lg1@1")).unwrap();
    let p = game.position();
    assert_eq!(
        p.display(),
        [
            DisplayExpansion::Up {
                slot: 0,
                kind: k("lg1")
            },
            DisplayExpansion::Down {
                slot: 1,
                tiles: kinds("ye2 dp5")
            },
        ]
    );
    assert_eq!(top(&game).slot, 2);
}

/// 16.2 Payment choices.
#[test]
fn example_16_2_payment_choices() {
    let mut p = position();
    let s = p.storage_mut(0);
    for t in kinds("bl1 bl2 bl3 bl3 ye3 dg3") {
        s.add_tile(t);
    }
    s.add_expansion(k("ye3"));
    let legal: Vec<String> = strings(&p.legal_moves())
        .into_iter()
        .filter(|m| m.starts_with("tile bl3 f0 "))
        .collect();
    assert_eq!(
        legal,
        [
            "tile bl3 f0 bl1 bl2",
            "tile bl3 f0 ye3 dg3",
            "tile bl3 f0 ye3x dg3",
            "tile bl3 f0 bl1 *",
            "tile bl3 f0 bl2 *",
            "tile bl3 f0 ye3 *",
            "tile bl3 f0 ye3x *",
            "tile bl3 f0 dg3 *",
            "tile bl3 f0 * *",
        ]
    );
    for bad in [
        "tile bl3 f0 bl1 ye3",
        "tile bl3 f0 ye3 ye3x",
        "tile bl3 f0 bl3 *",
    ] {
        assert!(
            matches!(p.check(&mv(bad)), Err(IllegalMove::NotASet(_))),
            "{bad}"
        );
    }
    assert!(Move::parse("tile bl3 f0 bl1").is_err());
}

/// 16.3 Group rule and bridging.
#[test]
fn example_16_3_group_rule_and_bridging() {
    let mut p = position();
    let jokers = Jokers::DEFAULT;
    p.garden_mut(0).place_tile(c("f0"), k("bl2"), jokers);
    p.garden_mut(0).place_tile(c("f2"), k("bl2"), jokers);
    let g = *p.garden(0);
    for (kind, duplicate, colour) in [("bl5", "bl2", true), ("ye2", "bl2", false)] {
        assert_eq!(
            g.check_rules(k(kind), c("f1")),
            Err(PlacementError::DuplicateInGroup {
                kind: k(kind),
                cell: c("f1"),
                duplicate: k(duplicate),
                colour
            })
        );
    }
    assert_eq!(
        g.check_rules(k("dg5"), c("f1")),
        Err(PlacementError::NoSharedNeighbour {
            kind: k("dg5"),
            cell: c("f1")
        })
    );
    assert!(g.check_rules(k("bl2"), c("f1")).is_err());
    // Through the move: a stored bl5 may not go on f1.
    p.storage_mut(0).add_tile(k("bl5"));
    assert!(matches!(
        p.check(&mv("tile bl5 f1 * * * *")),
        Err(IllegalMove::Placement(_))
    ));

    let mut only = position();
    only.garden_mut(0).place_tile(c("f0"), k("bl2"), jokers);
    let g = only.garden(0);
    assert_eq!(g.check_rules(k("bl5"), c("f1")), Ok(()));
    assert!(g.check_rules(k("bl2"), c("f1")).is_err());
}

/// 16.4 Surrounding the fountain.
#[test]
fn example_16_4_surrounding_the_fountain() {
    let mut p = position();
    for (d, name) in ["bl1", "bl2", "bl3", "bl4", "bl5"].into_iter().enumerate() {
        p.garden_mut(0)
            .place_tile(Cell::fountain(d as u8), k(name), Jokers::DEFAULT);
    }
    let s = p.storage_mut(0);
    s.add_tile(k("bl6"));
    s.set_jokers(5);
    p.play(&mv("tile bl6 f5 * * * * *")).unwrap();
    assert_eq!(p.storage(0).jokers(), 1);
    assert_eq!(p.storage(0).tile_count(), 0);
    assert_eq!(p.garden(0).group_points(), (21, 6));
}

/// 16.5 Reward overflow.
#[test]
fn example_16_5_reward_overflow() {
    let mut p = position();
    let g = p.garden_mut(0);
    g.place_face_down(Area::new(0).unwrap());
    g.place_face_down(Area::new(1).unwrap());
    for (cell, kind) in [
        ("f0", "bl2"),
        ("f1", "bl3"),
        ("a03", "bl4"),
        ("a02", "bl5"),
        ("a14", "bl6"),
    ] {
        g.place_tile(c(cell), k(kind), Jokers::DEFAULT);
    }
    let s = p.storage_mut(0);
    for t in kinds("bl1 ye1 ye2 ye3 ye4 lg1 lg2 lg3 lg4") {
        s.add_tile(t);
    }
    assert_eq!(s.free_tile_spaces(), 0);
    p.play(&mv("tile bl1 a15")).unwrap();
    assert_eq!(p.storage(0).jokers(), 4);
    assert_eq!(p.storage(0).free_tile_spaces(), 0);
}

/// 16.6 Phase 2 with the default wheel, round 1 (`bl dg 1`).
#[test]
fn example_16_6_round_scoring() {
    let mut p = position();
    let g = p.garden_mut(0);
    for (cell, kind) in [
        ("f0", "bl1"),
        ("f1", "bl2"),
        ("f3", "dg6"),
        ("f4", "ye1"),
        ("f5", "lp3"),
    ] {
        g.place_tile(c(cell), k(kind), Jokers::DEFAULT);
    }
    g.place_face_up(c("a20"), k("ye4"), Jokers::DEFAULT);
    assert_eq!(g.round_points(rules(2).wheel().round(1)), 12);
    // Through the end of round 1: both seats pass; seat 0 first (-1).
    p.play(&Move::PASS).unwrap();
    p.play(&Move::PASS).unwrap();
    assert_eq!(p.round_points(), [[12, 0]]);
    assert_eq!(p.scores(), [15 - 1 + 12, 15]);
    assert_eq!(p.round(), 2);
    assert_eq!(p.start_player(), 0);
}

/// 16.7 Final scoring.
#[test]
fn example_16_7_final_scoring() {
    let mut p = position();
    let g = p.garden_mut(0);
    for (d, name) in ["bl1", "bl2", "bl3", "bl4", "bl5", "bl6"]
        .into_iter()
        .enumerate()
    {
        g.place_tile(Cell::fountain(d as u8), k(name), Jokers::DEFAULT);
    }
    g.place_face_down(Area::new(0).unwrap());
    g.place_tile(c("a03"), k("ye1"), Jokers::DEFAULT);
    g.place_tile(c("a02"), k("lg1"), Jokers::DEFAULT);
    assert_eq!(p.garden(0).group_points(), (24, 6));
    let s = p.storage_mut(0);
    s.set_jokers(2);
    s.add_tile(k("dg4"));
    // Round 4 (wheel dp 5 6): bl5 and bl6 score 11, so 9 before phase 2 makes 20 after it.
    p.set_round(4);
    p.set_score(0, 9);
    p.set_to_move(1);
    p.play(&Move::PASS).unwrap();
    p.play(&Move::PASS).unwrap();
    assert!(p.is_over());
    assert_eq!(p.round_points(), [[11, 0]]);
    let f = p.final_scores().unwrap()[0];
    assert_eq!((f.storage, f.groups, f.bonus), (-2, 24, 6));
    assert_eq!(p.scores()[0], 48);
    assert_eq!(p.winners(), [0]);
    assert_eq!(p.legal_moves(), []);
    assert_eq!(p.check(&Move::PASS), Err(IllegalMove::GameOver));
    // The storage stays as it was (ruling R15).
    assert_eq!(p.storage(0).jokers(), 2);
}

/// 16.8 Passing.
#[test]
fn example_16_8_passing() {
    for (score, want) in [(15, 7), (5, 0)] {
        let mut p = position();
        p.set_to_move(1);
        p.set_score(1, score);
        let s = p.storage_mut(1);
        s.add_tile(k("ye3"));
        s.add_expansion(k("dg4"));
        let supply = p.supply();
        assert!(p.check(&mv("pass ye3 ye3")).is_err());
        assert!(p.check(&mv("pass dg4")).is_err());
        p.play(&mv("pass dg4x ye3")).unwrap();
        assert_eq!(p.scores()[1], want);
        assert_eq!(p.tower().collect::<Vec<_>>(), [k("ye3")]);
        assert_eq!(p.supply(), supply + 1);
        assert_eq!(p.first_passer(), Some(1));
        assert_eq!(p.passed(), [false, true]);
        assert_eq!(p.to_move(), Some(0));
        assert_eq!(p.last_move().unwrap().to_string(), "pass ye3 dg4x");
    }
}

/// A position whose stack top needs tiles at the next `take` of its colour, with `bag` and
/// `tower` as given and `refills` listed.
pub(crate) fn shortage(bag: &[Kind], tower: &[Kind], refills: Vec<Vec<Kind>>) -> (Position, Move) {
    let mut p = position();
    p.chance_mut(Chance::Listed(refills.into()));
    p.set_bag(bag);
    p.set_tower(tower);
    let top = p.stack().unwrap().tiles[0];
    let take = Move::Take {
        attribute: crate::Attribute::colour(top.colour()),
        choices: crate::Choices::NONE,
    };
    (p, take)
}

/// 16.9 Tower refill, mixing two tiles left in the bag with the tower's ten.
#[test]
fn example_16_9_tower_refill() {
    let bag = kinds("dp6 bl1");
    let tower = kinds("ye2 ye2 lg3 dg4 dg5 lp1 lp1 dp2 dp3 bl6");
    let order = kinds("lp1 ye2 bl6 dp6 dg4 bl1 dp2 ye2 lg3 dg5 lp1 dp3");
    // A refill that is not an ordering of those 12 tiles: refused, nothing changes.
    for wrong in [
        kinds("lp1 ye2 bl6 dp6 dg4 bl1 dp2 ye2 lg3 dg5 lp1"),
        kinds("lp1 ye2 bl6 dp6 dg4 bl1 dp2 ye2 lg3 dg5 lp1 dp4"),
    ] {
        let (mut p, take) = shortage(&bag, &tower, vec![wrong]);
        let before = p.clone();
        let err = p.play(&take).unwrap_err();
        assert!(
            matches!(
                err,
                IllegalMove::Refill(RefillError::NotAnOrdering { index: 0, .. })
            ),
            "{err}"
        );
        assert_eq!(p, before);
    }
    let (mut p, take) = shortage(&bag, &tower, Vec::new());
    assert_eq!(
        p.play(&take),
        Err(IllegalMove::Refill(RefillError::Missing {
            index: 0,
            needed: 12
        }))
    );
    let (mut p, take) = shortage(&bag, &tower, vec![order.clone()]);
    p.play(&take).unwrap();
    assert_eq!(p.refills_used(), 1);
    assert_eq!(p.tower_len(), 0);
    assert_eq!(p.bag().collect::<Vec<_>>(), order[4..]);
    let mut first = order[..4].to_vec();
    first.sort();
    assert_eq!(p.stack().unwrap().tiles, first);
    assert_eq!(p.stack().unwrap().slot, 1);
    // A seeded position refills from its seed: CPython's shuffle of the 12 sorted tiles.
    let (mut p, take) = shortage(&bag, &tower, Vec::new());
    p.chance_mut(Chance::Seeded(2026));
    let mut game = Game::from_position(p);
    game.play(&take).unwrap();
    let mut sorted: Vec<Kind> = bag.iter().chain(&tower).copied().collect();
    sorted.sort();
    let mut want = [0u8; 12];
    let ids: Vec<u8> = sorted.iter().map(|k| k.id()).collect();
    Chance::Seeded(2026).refill(0, &ids, &mut want).unwrap();
    let refills = game.refills();
    assert_eq!(refills.len(), 1);
    assert_eq!(refills[0].iter().map(|k| k.id()).collect::<Vec<_>>(), want);
}

/// 11.3: a stack top given fewer than 4 tiles (1-3).
#[test]
fn stack_top_gets_what_there_is() {
    // One tile left in the bag, the tower empty: no refill, the top gets it.
    let (mut p, take) = shortage(&kinds("ye5"), &[], Vec::new());
    p.play(&take).unwrap();
    assert_eq!(p.stack().unwrap().tiles, kinds("ye5"));
    assert_eq!(p.bag_len(), 0);
    assert_eq!(p.refills_used(), 0);
    // The bag empty, three tiles in the tower: a refill of 3, the top gets all of them.
    let (mut p, take) = shortage(&[], &kinds("lg2 bl3 lg2"), vec![kinds("lg2 bl3 lg2")]);
    p.play(&take).unwrap();
    assert_eq!(p.stack().unwrap().tiles, kinds("bl3 lg2 lg2"));
    assert_eq!(p.refills_used(), 1);
    assert_eq!((p.bag_len(), p.tower_len()), (0, 0));
    // Two in the bag and two in the tower: a refill of 4.
    let (mut p, take) = shortage(
        &kinds("dp1 dp2"),
        &kinds("bl1 bl2"),
        vec![kinds("bl2 dp1 bl1 dp2")],
    );
    p.play(&take).unwrap();
    assert_eq!(p.stack().unwrap().tiles, kinds("bl1 bl2 dp1 dp2"));
}

/// 16.10 No tiles left: the rest of the stack turns face up; `stack` is null.
#[test]
fn example_16_10_no_tiles_left() {
    let (mut p, take) = shortage(&[], &[], Vec::new());
    let left = p.stack().unwrap().tiles.len();
    p.play(&take).unwrap();
    assert_eq!(p.stack(), None);
    assert_eq!(p.snapshot(false)["stack"], serde_json::Value::Null);
    let display = p.display();
    // Slot 0 keeps the tiles not taken (or turned face up when emptied); slots 1..4 face up.
    assert_eq!(display.len(), 5);
    for (slot, d) in display.iter().enumerate().skip(1) {
        assert_eq!(
            *d,
            DisplayExpansion::Up {
                slot: slot as u8,
                kind: Kind::new(slot as u8).unwrap()
            }
        );
    }
    assert!(left > 0);
    assert_eq!(p.to_move(), Some(1));
    // The round goes on with what the display holds: seat 1 can take the face-up expansions.
    assert!(strings(&p.legal_moves()).contains(&"take 2".to_owned()));
}

#[test]
fn a_record_round_trips_through_the_writer() {
    let mut game = Game::from_seed(rules(3), 11);
    let mut n = 0;
    while let Some(m) = game
        .legal_moves()
        .get(n % 3)
        .copied()
        .or_else(|| game.legal_moves().first().copied())
    {
        game.play(&m).unwrap();
        n += 1;
    }
    let record = game.to_record();
    let again = read_record_value(&record).unwrap();
    assert_eq!(again.position(), &{
        // The replay lists its refills; otherwise it is the same position.
        let mut p = game.position().clone();
        p.chance_mut(again.position().chance().clone());
        p
    });
    assert_eq!(again.to_record()["moves"], record["moves"]);
    assert_eq!(again.to_record()["refills"], record["refills"]);
    assert_eq!(record["seed"], 11);
    // The record's seed is kept for its record; the replay deals from the listed refills.
    assert_eq!(again.record_seed(), Some(11));
    assert_eq!(again.seed(), None);
    assert_eq!(again.to_record(), record);
}

#[test]
fn records_fail_at_the_first_bad_field() {
    let game = Game::from_seed(rules(2), 5);
    let good = game.to_record();
    let mut cases: Vec<(serde_json::Value, &str)> = Vec::new();
    let mut with = |f: &dyn Fn(&mut serde_json::Value), at: &'static str| {
        let mut r = good.clone();
        f(&mut r);
        cases.push((r, at));
    };
    with(&|r| *r = serde_json::json!([1]), "record");
    with(&|r| r["format"] = "indigo-record/1".into(), "format");
    with(&|r| r["rules"] = serde_json::json!(2), "rules");
    with(
        &|r| r["rules"]["players"] = serde_json::json!(2.0),
        "rules.players",
    );
    with(
        &|r| r["rules"]["players"] = serde_json::json!(true),
        "rules.players",
    );
    with(
        &|r| r["rules"]["players"] = serde_json::json!("2"),
        "rules.players",
    );
    with(
        &|r| {
            r["rules"]["wheel"] = serde_json::json!([
                ["bl", "bl", "1"],
                ["ye", "2", "3"],
                ["lg", "lp", "4"],
                ["dp", "5", "6"]
            ]);
        },
        "rules.wheel",
    );
    with(
        &|r| r["rules"]["jokers"]["statue"] = serde_json::json!(13),
        "rules.jokers",
    );
    with(
        &|r| r["rules"]["jokers"] = serde_json::json!({"fountain": 1}),
        "rules.jokers",
    );
    with(
        &|r| {
            r["rules"]["zeta"] = 1.into();
            r["rules"]["alpha"] = 1.into();
        },
        "rules.alpha",
    );
    with(&|r| r["bag"][0] = "bl7".into(), "bag");
    with(
        &|r| r["expansions"][0] = r["expansions"][1].clone(),
        "expansions",
    );
    with(&|r| r["refills"] = serde_json::json!({}), "refills");
    with(
        &|r| r["refills"] = serde_json::json!([["bl1"], "bl1"]),
        "refills[1]",
    );
    with(&|r| r["moves"] = serde_json::json!("pass"), "moves");
    for (record, at) in cases {
        let err = read_record_value(&record).unwrap_err();
        assert_eq!(err.at.to_string(), at, "{err}");
    }
    // A bad format is reported before bad rules; the JSON text reader names `record`.
    assert_eq!(
        crate::read_record("{").unwrap_err().at.to_string(),
        "record"
    );
    // A move after the end is named by its index; a move error names its location.
    let mut record = good.clone();
    record["moves"] = serde_json::json!(["pass", "pass", "take 9"]);
    let err = read_record_value(&record).unwrap_err();
    assert!(err.to_string().starts_with("moves[2]: "), "{err}");
    record["moves"] = serde_json::json!(["tile bl1 a03"]);
    let err = read_record_value(&record).unwrap_err();
    assert_eq!(
        err.to_string(),
        "moves[0]: tile bl1 a03 is illegal: the storage holds no bl1 tile"
    );
}

#[test]
fn expansion_placement() {
    let mut p = position();
    p.storage_mut(0).add_expansion(k("lg1"));
    let legal = strings(&p.legal_moves());
    // lg1 is a tree: 6 petals of 6 areas, no payment.
    let exps: Vec<&String> = legal.iter().filter(|m| m.starts_with("exp ")).collect();
    assert_eq!(exps.len(), 36);
    assert_eq!(exps[0], "exp lg1 a00");
    p.play(&mv("exp lg1 a03")).unwrap();
    assert_eq!(
        p.garden(0).area(Area::new(0).unwrap()),
        AreaState::FaceUp {
            kind: k("lg1"),
            petal: 3
        }
    );
    assert!(!p.garden(0).is_free(c("a0c")));
    assert!(!p.garden(0).is_free(c("a03")));
    assert!(p.garden(0).is_free(c("a00")));
    assert_eq!(p.garden(0).tile(c("a03")), None);
    assert_eq!(p.garden(0).hexagon(c("a03")), Some(k("lg1")));
    assert_eq!(p.snapshot(false)["gardens"][0]["areas"][0]["petal"], 3);
    // Seat 1 may not place into a centre or the fountain board.
    p.storage_mut(1).add_expansion(k("ye1"));
    for bad in ["exp ye1 a0c", "exp ye1 f0"] {
        assert!(matches!(
            p.check(&mv(bad)),
            Err(IllegalMove::NotAFreeArea(_))
        ));
    }
}

/// Seeded games of every player count, uniformly random legal moves with passes that discard
/// now and then: each game ends within the bound of section 14, conserves its pieces, agrees
/// with `play_unchecked`, and its record replays to the same end.
#[test]
fn random_seeded_games_end_conserve_and_replay() {
    let mut refills = 0;
    for players in 2..=4u8 {
        let bound = match players {
            2 => 216,
            3 => 314,
            _ => 392,
        };
        for seed in 0..8u64 {
            let mut game = Game::from_seed(rules(players), seed);
            let mut rng = pyrandom::PyRandom::from_u64(seed + 100);
            let mut buffer = Vec::new();
            while !game.position().is_over() {
                game.position().legal_moves_into(&mut buffer);
                let mut mv = buffer[rng.randbelow(buffer.len() as u32) as usize];
                if mv == Move::PASS && rng.randbelow(2) == 0 {
                    // Discard some of the stored hexagons.
                    let storage = game.position().storage(game.position().to_move().unwrap());
                    let hexagons: Vec<crate::Hexagon> = storage
                        .tiles()
                        .map(crate::Hexagon::Tile)
                        .chain(storage.expansions().map(crate::Hexagon::Expansion))
                        .filter(|_| rng.randbelow(2) == 0)
                        .collect();
                    mv = Move::Pass {
                        discards: crate::Discards::new(&hexagons).unwrap(),
                    };
                }
                let mut unchecked = game.position().clone();
                unchecked.play_unchecked(&mv).unwrap();
                game.play(&mv).unwrap();
                assert_eq!(game.position(), &unchecked);
                assert_eq!(game.position().tile_total(), 108);
                assert_eq!(game.position().expansion_total(), 36);
                assert!(game.moves_played() <= bound);
            }
            refills += game.position().refills_used();
            let replay = read_record_value(&game.to_record()).unwrap();
            assert_eq!(
                replay.position().snapshot(false),
                game.position().snapshot(false)
            );
            assert!(!game.position().winners().is_empty());
        }
    }
    assert!(refills > 0, "some 4-player game refills its bag");
}

/// Every kind of illegal move is refused with the position unchanged.
#[test]
fn illegal_moves_change_nothing() {
    let mut p = position();
    p.storage_mut(0).add_tile(k("bl3"));
    let before = p.clone();
    for (text, want) in [
        (
            "take 6",
            "no hexagon in the display shows 6: the selection is empty",
        ),
        (
            "take bl bl1@0",
            "bl1 is not at two or more slots of the selection: it takes no copy choice",
        ),
        ("tile ye1 f0", "the storage holds no ye1 tile"),
        (
            "tile bl3 a03 * *",
            "cell a03 is not a free space of the garden",
        ),
        (
            "tile bl3 f0 * bl1",
            "the storage holds no bl1 tile to discard",
        ),
        ("tile bl3 f0 * * ", ""),
        ("exp bl1 a03", "the storage holds no bl1 expansion"),
        (
            "pass bl3 bl3",
            "the pass discards 2 x bl3 but the storage holds 1",
        ),
    ] {
        let Ok(m) = Move::parse(text) else {
            assert!(want.is_empty(), "{text}");
            continue;
        };
        let err = p.play(&m).unwrap_err();
        assert_eq!(err.to_string(), want, "{text}");
        assert_eq!(p, before, "{text}");
    }
    p.set_score(0, 5);
    assert_eq!(p.check(&mv("buy a0")), Err(IllegalMove::ScoreTooLow(5)));
}

#[test]
fn moves_play_from_notation() {
    let mut game = Game::from_seed(rules(2), 3);
    assert!(matches!(
        game.play_notation("take  bl"),
        Err(crate::PlayError::Notation(_))
    ));
    assert!(matches!(
        game.play_notation("buy a9"),
        Err(crate::PlayError::Notation(_))
    ));
    let before = game.position().clone();
    assert_eq!(
        game.play_notation("pass ye1").unwrap_err().to_string(),
        "illegal move: the pass discards 1 x ye1 but the storage holds 0"
    );
    assert_eq!(game.position(), &before);
    assert_eq!(game.play_notation("buy a2").unwrap(), mv("buy a2"));
    assert_eq!(game.last_move(), Some(mv("buy a2")));
    assert_eq!(game.moves_played(), 1);
    assert!(game.position().is_legal(&Move::PASS));
}

/// Sections 7.2 and 7.3 read plainly, as a test oracle: with `kind` on `cell`, some neighbour
/// shares an attribute (if any neighbour holds a hexagon), and the colour group and the pattern
/// group holding `cell`, found by a breadth-first search, hold no kind twice.
fn oracle_allows(g: &crate::Garden, kind: Kind, cell: Cell) -> bool {
    let at = |c: Cell| if c == cell { Some(kind) } else { g.hexagon(c) };
    let neighbours: Vec<Kind> = cell.neighbours().filter_map(|c| g.hexagon(c)).collect();
    if !neighbours.is_empty()
        && !neighbours
            .iter()
            .any(|n| n.colour() == kind.colour() || n.value() == kind.value())
    {
        return false;
    }
    let same = [
        &(|k: Kind| k.colour() == kind.colour()) as &dyn Fn(Kind) -> bool,
        &|k: Kind| k.value() == kind.value(),
    ];
    same.iter().all(|same| {
        let mut group = vec![cell];
        let mut i = 0;
        while i < group.len() {
            for n in group[i].neighbours() {
                if !group.contains(&n) && at(n).is_some_and(same) {
                    group.push(n);
                }
            }
            i += 1;
        }
        let mut kinds: Vec<Kind> = group.iter().filter_map(|&c| at(c)).collect();
        kinds.sort();
        kinds.windows(2).all(|w| w[0] != w[1])
    })
}

/// The bulk placement check of the move generator and `check_rules` agree with the oracle on
/// every free cell and petal of an empty area, for every kind, along random seeded games.
#[test]
fn placement_checks_agree_with_the_oracle() {
    for seed in 0..3u64 {
        let mut game = Game::from_seed(rules(2 + (seed % 3) as u8), seed);
        let mut rng = pyrandom::PyRandom::from_u64(seed);
        while !game.position().is_over() {
            for seat in 0..game.rules().players() {
                let g = game.position().garden(seat);
                let candidates: Vec<Cell> = Cell::all()
                    .filter(|&c| {
                        g.is_free(c)
                            || c.area().is_some_and(|a| {
                                c.petal().is_some() && g.area(a) == AreaState::Empty
                            })
                    })
                    .collect();
                let mask = candidates.iter().fold(0u64, |m, c| m | 1 << c.index());
                let allowed = g.allowed_kinds(mask);
                for cell in candidates {
                    for kind in Kind::all() {
                        let want = oracle_allows(g, kind, cell);
                        assert_eq!(
                            allowed[usize::from(cell.index())] >> kind.id() & 1 != 0,
                            want,
                            "{kind} on {cell}"
                        );
                        assert_eq!(g.check_rules(kind, cell).is_ok(), want, "{kind} on {cell}");
                    }
                }
            }
            // Prefer placements so that gardens fill up.
            let legal = game.legal_moves();
            let placements: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|m| matches!(m, Move::Tile { .. } | Move::Exp { .. }))
                .collect();
            let pool = if placements.is_empty() || rng.randbelow(4) == 0 {
                &legal
            } else {
                &placements
            };
            let mv = pool[rng.randbelow(pool.len() as u32) as usize];
            game.play(&mv).unwrap();
        }
    }
}

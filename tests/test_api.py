"""Unit tests of the public Python API (``python/indigo/_native.pyi``), checked against
docs/spec/RULES.md and docs/spec/FORMATS.md, including the worked examples of docs/spec/RULES.md
section 10."""

from __future__ import annotations

import copy
import itertools
import json
import pickle
import re
from typing import Any

import pytest

import indigo
from conftest import (
    ALL_CELLS,
    BOX,
    CORNERS,
    DISTINCT_ROTATIONS,
    GATE_CELLS,
    GATE_OWNERS,
    GEM_POINTS,
    ROUTE_CELLS,
    TILE_COUNTS,
    TILE_PAIRS,
    RefGame,
    assert_pickle_round_trip,
    canonical_rotation,
    canonical_rotations,
    check_legal_list,
    equivalent_rotations,
    illegal_moves,
    load_vector,
    make_pile,
    make_rules,
    move_tuple,
    normalise,
    owners_key,
    rotated_pairs,
)
from indigo import (
    Game,
    GreedyBot,
    IllegalMoveError,
    IndigoError,
    Move,
    MoveError,
    MoveResult,
    RandomBot,
    RecordError,
    Rules,
    RulesError,
)

COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")
ZERO = {"amber": 0, "emerald": 0, "sapphire": 0}
START_AMBERS = sorted(
    [("amber", q, r, (d + 3) % 6) for d, (q, r) in enumerate(CORNERS)], key=lambda g: g[1:]
)


def game_with(prefix: list[int], players: int = 2, hand_size: int = 1, **kw: Any) -> Game:
    return Game(Rules(players, hand_size, **kw), pile=make_pile(prefix))


def gem_tuples(game: Game) -> list[tuple[str, int, int, int]]:
    return [tuple(g) for g in game.gems]  # type: ignore[misc]


def path_tuples(path: indigo.GemPath) -> list[tuple[int, int, int, int]]:
    return [tuple(s) for s in path.steps]  # type: ignore[misc]


# ------------------------------------------------------------------------------------------
# Constants and errors
# ------------------------------------------------------------------------------------------


def test_board_constants() -> None:
    assert [tuple(c) for c in indigo.CELLS] == ALL_CELLS
    assert [tuple(c) for c in indigo.ROUTE_CELLS] == ROUTE_CELLS
    assert tuple(indigo.CENTRE) == (0, 0)
    assert [tuple(c) for c in indigo.CORNERS] == CORNERS
    assert [[tuple(c) for c in cells] for cells in indigo.GATE_CELLS] == GATE_CELLS


def test_tile_constants() -> None:
    assert list(indigo.TILE_COUNTS) == TILE_COUNTS
    assert sum(indigo.TILE_COUNTS) == 54
    got = [sorted(tuple(sorted(p)) for p in pairs) for pairs in indigo.TILE_PATHS]
    assert got == TILE_PAIRS
    assert dict(indigo.GEM_POINTS) == GEM_POINTS


def test_version() -> None:
    assert isinstance(indigo.__version__, str)
    assert indigo.__version__


def test_error_hierarchy() -> None:
    assert issubclass(IndigoError, ValueError)
    for cls in (RulesError, MoveError, IllegalMoveError, RecordError):
        assert issubclass(cls, IndigoError)
    assert len({RulesError, MoveError, IllegalMoveError, RecordError}) == 4
    assert not issubclass(IllegalMoveError, MoveError)
    assert not issubclass(MoveError, IllegalMoveError)


# ------------------------------------------------------------------------------------------
# Rules
# ------------------------------------------------------------------------------------------


def test_rules_defaults() -> None:
    r = Rules()
    assert r.players == 2
    assert r.hand_size == 1
    assert r.three_player_gates == "shared"
    assert r.tie_break == "most-gems"
    assert r.open_hands is False
    assert r.theme == "indigo"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_rules_presets(players: int) -> None:
    basic = Rules.indigo(players)
    assert (basic.players, basic.hand_size, basic.theme) == (players, 1, "indigo")
    tactical = Rules.tactical(players)
    assert (tactical.players, tactical.hand_size, tactical.theme) == (players, 2, "indigo")
    garden = Rules.butterfly_garden(players)
    assert (garden.players, garden.hand_size, garden.theme) == (players, 2, "butterfly-garden")
    for r in (basic, tactical, garden):
        assert r.three_player_gates == "shared"
        assert r.tie_break == "most-gems"
        assert r.open_hands is False
    assert basic == Rules(players, 1)
    assert tactical == Rules(players, 2)
    assert garden == Rules(players, 2, theme="butterfly-garden")
    assert garden != tactical
    assert Rules.preset("indigo", players) == basic
    assert Rules.preset("butterfly-garden", players) == garden


def test_rules_preset_default_players() -> None:
    assert Rules.indigo().players == 2
    assert Rules.tactical().players == 2
    assert Rules.butterfly_garden().players == 2


def test_theme_names() -> None:
    garden = Rules.butterfly_garden()
    assert garden.gem_name("amber") == "blue butterfly"
    assert garden.gem_name("emerald") == "pink butterfly"
    assert garden.gem_name("sapphire") == "purple butterfly"
    assert garden.gate_name == "flowerbed"
    basic = Rules.indigo()
    for gem in ("amber", "emerald", "sapphire"):
        assert basic.gem_name(gem).lower() == gem
    assert basic.gate_name == "gateway"
    assert Rules.tactical(3).gate_name == "gateway"


@pytest.mark.parametrize(
    "rules", [Rules.indigo(4), Rules.butterfly_garden(4)], ids=["indigo", "bg"]
)
def test_theme_colours(rules: Rules) -> None:
    gem_colours = [rules.gem_colour(g) for g in ("amber", "emerald", "sapphire")]
    assert all(COLOUR.match(c) for c in gem_colours), gem_colours
    assert len({c.lower() for c in gem_colours}) == 3
    seat_colours = [rules.seat_colour(s) for s in range(4)]
    assert all(COLOUR.match(c) for c in seat_colours), seat_colours
    assert len({c.lower() for c in seat_colours}) == 4


@pytest.mark.parametrize(
    "kwargs",
    [
        {"players": 1},
        {"players": 5},
        {"players": 0},
        {"players": -2},
        {"hand_size": 0},
        {"hand_size": 3},
        {"players": 3, "three_player_gates": "private"},
        {"three_player_gates": "bogus"},
        {"tie_break": "coin-toss"},
        {"tie_break": "most_gems"},
        {"theme": "chess"},
    ],
    ids=lambda kw: ",".join(f"{k}={v}" for k, v in kw.items()),
)
def test_rules_validation(kwargs: dict[str, Any]) -> None:
    with pytest.raises(RulesError) as exc:
        Rules(**kwargs)
    assert isinstance(exc.value, ValueError)
    assert isinstance(exc.value, IndigoError)


@pytest.mark.parametrize("players", [1, 5])
def test_rules_preset_validation(players: int) -> None:
    for preset in (Rules.indigo, Rules.tactical, Rules.butterfly_garden):
        with pytest.raises(RulesError, match=f"players: must be 2, 3 or 4, not {players}"):
            preset(players)
    with pytest.raises(RulesError, match="players: must be 2, 3 or 4, not 10000000000"):
        Rules.preset("indigo", 10**10)
    with pytest.raises(RulesError, match="theme: must be"):
        Rules.preset("chess", 2)


def test_rules_immutable() -> None:
    r = Rules(3, 2)
    with pytest.raises(AttributeError):
        r.players = 4  # type: ignore[misc]
    with pytest.raises(AttributeError):
        r.hand_size = 1  # type: ignore[misc]
    assert (r.players, r.hand_size) == (3, 2)


def test_rules_equality_hash_pickle() -> None:
    variants = [
        Rules(2, 1),
        Rules(2, 2),
        Rules(3, 1),
        Rules(3, 1, three_player_gates="exclusive"),
        Rules(4, 2),
        Rules(2, 1, tie_break="shared"),
        Rules(2, 1, open_hands=True),
        Rules.butterfly_garden(3),
    ]
    for a, b in itertools.combinations(variants, 2):
        assert a != b, (a, b)
    for r in variants:
        twin = Rules(
            r.players,
            r.hand_size,
            three_player_gates=r.three_player_gates,
            tie_break=r.tie_break,
            open_hands=r.open_hands,
            theme=r.theme,
        )
        assert twin == r
        assert hash(twin) == hash(r)
        back = pickle.loads(pickle.dumps(r))
        assert back == r
        assert (back.open_hands, back.theme, back.tie_break) == (r.open_hands, r.theme, r.tie_break)
    assert len(set(variants)) == len(variants)
    assert Rules() != "rules"


@pytest.mark.parametrize("tie_break", ["most-gems", "shared"])
def test_rules_to_dict(config: tuple[int, int, str], tie_break: str) -> None:
    rules = make_rules(config, tie_break=tie_break)
    d = rules.to_dict()
    json.dumps(d)
    assert d["players"] == config[0]
    assert d["hand_size"] == config[1]
    if config[0] == 3:
        assert d.get("three_player_gates", "shared") == config[2]
    assert d.get("tie_break", "most-gems") == tie_break
    record = {"format": "indigo-record/1", "rules": d, "pile": make_pile(), "moves": []}
    assert Game.from_record(record).rules == rules


OWNER_CASES = [
    (Rules(2), "2"),
    (Rules(2, 2), "2"),
    (Rules(2, three_player_gates="exclusive"), "2"),  # ignored unless 3 players
    (Rules(3), "3-shared"),
    (Rules(3, 2), "3-shared"),
    (Rules(3, three_player_gates="exclusive"), "3-exclusive"),
    (Rules(3, 2, three_player_gates="exclusive"), "3-exclusive"),
    (Rules(4), "4"),
    (Rules(4, 2), "4"),
    (Rules(4, three_player_gates="exclusive"), "4"),
    (Rules.butterfly_garden(3), "3-shared"),
]


@pytest.mark.parametrize(
    ("rules", "key"), OWNER_CASES, ids=[f"{k}-{i}" for i, (_, k) in enumerate(OWNER_CASES)]
)
def test_gate_owners_table(rules: Rules, key: str) -> None:
    """docs/spec/RULES.md section 5, copied into conftest.GATE_OWNERS."""
    assert [list(rules.gate_owners(k)) for k in range(6)] == GATE_OWNERS[key]


def test_gate_owners_structure() -> None:
    """Three players: each owns one gate alone and shares one with each opponent.
    Four players: every pair shares exactly one gate."""
    shared = Rules(3)
    alone = [shared.gate_owners(k)[0] for k in range(6) if len(shared.gate_owners(k)) == 1]
    assert sorted(alone) == [0, 1, 2]
    pairs = [tuple(shared.gate_owners(k)) for k in range(6) if len(shared.gate_owners(k)) == 2]
    assert sorted(pairs) == [(0, 1), (0, 2), (1, 2)]
    four = Rules(4)
    assert sorted(tuple(four.gate_owners(k)) for k in range(6)) == list(
        itertools.combinations(range(4), 2)
    )


@pytest.mark.parametrize("gate", [6, 7, 100])
def test_gate_owners_bad_gate(gate: int) -> None:
    with pytest.raises(IndigoError):
        Rules(2).gate_owners(gate)


# ------------------------------------------------------------------------------------------
# Move
# ------------------------------------------------------------------------------------------


def test_move_fields() -> None:
    m = Move(4, 0, 0, -3)
    assert (m.tile, m.rotation, m.q, m.r) == (4, 0, 0, -3)
    assert tuple(m.cell) == (0, -3)
    assert m.to_dict() == {"tile": 4, "rotation": 0, "q": 0, "r": -3}
    assert m == Move(4, 0, 0, -3)
    assert hash(m) == hash(Move(4, 0, 0, -3))
    assert m != Move(4, 1, 0, -3)
    assert m != Move(3, 0, 0, -3)
    assert m != Move(4, 0, 0, -2)
    assert m != "4@0:0,-3"
    assert pickle.loads(pickle.dumps(m)) == m
    assert copy.deepcopy(m) == m
    # Equivalent rotations are one move (tile 1 looks the same every way); tile 3's are not.
    assert len({Move(1, 0, 0, -1), Move(1, 0, 0, -1), Move(1, 3, 0, -1)}) == 1
    assert len({Move(3, 0, 0, -1), Move(3, 3, 0, -1)}) == 2
    with pytest.raises(AttributeError):
        m.tile = 3  # type: ignore[misc]


def test_move_keywords() -> None:
    assert Move(tile=2, rotation=5, q=-1, r=3) == Move(2, 5, -1, 3)


@pytest.mark.parametrize(
    "args",
    [
        (5, 0, 0, -3),
        (-1, 0, 0, -3),
        (0, 6, 0, -3),
        (0, -1, 0, -3),
        (0, 0, 5, 0),
        (0, 0, 0, 5),
        (0, 0, -5, 0),
        (0, 0, 3, 2),
        (0, 0, -3, -2),
        (0, 0, 4, 1),
        (0, 0, 5, -5),
        (0, 0, 100, 0),
        (0, 0, 0, -100),
    ],
    ids=lambda a: "T{}@{}:{},{}".format(*a),
)
def test_move_validation(args: tuple[int, int, int, int]) -> None:
    with pytest.raises(MoveError) as exc:
        Move(*args)
    assert isinstance(exc.value, ValueError)


def test_move_on_centre_and_corners_is_well_formed() -> None:
    """Centre and corners are on the board: such moves exist, they are only never legal."""
    for q, r in [(0, 0), *CORNERS]:
        assert Move(1, 0, q, r).cell == (q, r)


def test_move_notation_every_move() -> None:
    for tile, rotation, (q, r) in itertools.product(range(5), range(6), ALL_CELLS):
        m = Move(tile, rotation, q, r)
        text = f"{tile}@{rotation}:{q},{r}"
        assert str(m) == text
        assert Move.parse(text) == m
        assert Move.parse(str(m)) == m


@pytest.mark.parametrize(
    "text",
    [
        "4@0 (0,-3)",
        "4@0:(0,-3)",
        "4@0 ( 0 , -3 )",
        " 4@0:0,-3 ",
        "4 @ 0 : 0 , -3",
        "4@0: 0,-3",
        "4@0 :0,-3",
    ],
)
def test_move_parse_lenient(text: str) -> None:
    assert Move.parse(text) == Move(4, 0, 0, -3)


@pytest.mark.parametrize(
    "text",
    [
        "",
        " ",
        "4",
        "4@0",
        "4@0:",
        "4@0:0",
        "4@0:0,",
        "4@0:0,-3,1",
        "4@0:0;-3",
        "@0:0,-3",
        "x@0:0,-3",
        "4@x:0,-3",
        "4@0:a,-3",
        "4@@0:0,-3",
        "4@0::0,-3",
        "4@0:0,--3",
        "4@0:0,-3 junk",
        "4.0@0:0,-3",
        "5@0:0,-3",
        "-1@0:0,-3",
        "4@6:0,-3",
        "4@0:5,0",
        "4@0:0,-5",
        "4@0:3,2",
        "four@zero:0,-3",
    ],
)
def test_move_parse_malformed(text: str) -> None:
    with pytest.raises(MoveError):
        Move.parse(text)


def test_move_canonical_and_paths() -> None:
    for tile, rotation in itertools.product(range(5), range(6)):
        m = Move(tile, rotation, 1, -2)
        c = m.canonical()
        assert c.rotation == canonical_rotation(tile, rotation)
        assert (c.tile, c.q, c.r) == (tile, 1, -2)
        assert c.canonical() == c
        assert [tuple(p) for p in m.paths()] == rotated_pairs(tile, rotation)
        assert [tuple(p) for p in c.paths()] == [tuple(p) for p in m.paths()]
        for other in range(6):
            same = rotated_pairs(tile, other) == rotated_pairs(tile, rotation)
            assert (Move(tile, other, 1, -2).canonical() == c) == same
            assert (Move(tile, other, 1, -2) == m) == same  # equal as is_legal sees it


@pytest.mark.parametrize("tile", range(5))
def test_distinct_rotations(tile: int) -> None:
    canon = {Move(tile, rho, 0, -1).canonical().rotation for rho in range(6)}
    assert len(canon) == DISTINCT_ROTATIONS[tile] == [3, 1, 3, 6, 2][tile]
    assert sorted(canon) == canonical_rotations(tile)
    assert min(canon) == 0
    for rho in range(6):
        assert Move(tile, rho, 0, -1).canonical().rotation == min(equivalent_rotations(tile, rho))


def test_tile_types_are_distinct_up_to_rotation() -> None:
    shapes = [{tuple(Move(t, rho, 0, -1).paths()) for rho in range(6)} for t in range(5)]
    for a, b in itertools.combinations(range(5), 2):
        assert not shapes[a] & shapes[b]


# ------------------------------------------------------------------------------------------
# Game set-up
# ------------------------------------------------------------------------------------------


def test_initial_position(config: tuple[int, int, str]) -> None:
    players, hand_size, gates = config
    pile = make_pile(seed=players * 10 + hand_size)
    game = Game(make_rules(config), pile=pile)
    ref = RefGame(players, hand_size, gates, pile)
    expected = ref.snapshot(legal=True)
    assert normalise(game.snapshot(legal=True)) == expected
    # Dealing: one tile per seat per round, seat 0 first.
    for seat in range(players):
        dealt = [pile[rnd * players + seat] for rnd in range(hand_size)]
        assert sorted(dealt) == game.hand(seat) == game.hands[seat]
    assert game.pile == pile
    assert game.seed is None
    assert game.rules == make_rules(config)
    assert game.to_move == 0
    assert game.moves_played == 0
    assert game.pile_left == 54 - players * hand_size
    assert dict(game.board) == {}
    assert gem_tuples(game) == START_AMBERS
    assert list(game.centre) == ["emerald"] * 5 + ["sapphire"]
    assert list(game.scores) == [0] * players
    assert [dict(c) for c in game.collected] == [ZERO] * players
    assert game.removed == 0
    assert game.over is False
    assert list(game.winners) == []
    assert list(game.moves) == []
    assert game.last_result is None
    snap = game.snapshot()
    assert snap["format"] == "indigo-snapshot/1"
    assert snap["players"] == players
    assert "legal" not in snap


def test_game_rules_none_is_default() -> None:
    pile = make_pile(seed=4)
    assert Game(None, pile=pile) == Game(Rules(), pile=pile)
    assert Game(pile=pile).rules == Rules()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_butterfly_garden_changes_names_only(players: int) -> None:
    """FORMATS.md: the theme only changes names shown to people, never the snapshot's values."""
    pile = make_pile(seed=players)
    garden = Game(Rules.butterfly_garden(players), pile=pile)
    tactical = Game(Rules.tactical(players), pile=pile)
    assert garden.rules.theme == "butterfly-garden"
    for i in range(25):
        assert normalise(garden.snapshot(legal=True)) == normalise(tactical.snapshot(legal=True))
        if garden.over:
            break
        m = tactical.legal_moves[(i * 53) % len(tactical.legal_moves)]
        rg, rt = garden.play(m), tactical.play(m)
        assert [(p.gem, p.outcome, p.gate) for p in rg.paths] == [
            (p.gem, p.outcome, p.gate) for p in rt.paths
        ]
        assert rg.points == rt.points
    assert garden.snapshot()["gems"] == tactical.snapshot()["gems"]


def test_game_defaults_and_os_seed() -> None:
    a, b = Game(), Game()
    assert a.rules == Rules()
    assert isinstance(a.seed, int)
    assert sorted(a.pile) == BOX
    assert a.seed != b.seed
    assert Game(Rules(), seed=a.seed).pile == a.pile
    assert Game(Rules.tactical(3), seed=a.seed).pile == a.pile


@pytest.mark.filterwarnings("error::pytest.PytestUnraisableExceptionWarning")
@pytest.mark.parametrize("make", [lambda s: Game(seed=s), indigo.RandomBot, indigo.GreedyBot])
def test_seed_too_long_to_print_is_a_clean_error(make: Any) -> None:
    """str() of an int over 4300 digits fails; the error message must not need it."""
    with pytest.raises(indigo.IndigoError, match="from 0 to 2\\*\\*64 - 1"):
        make(10**5000)


@pytest.mark.parametrize("number", [float("nan"), float("inf"), -float("inf")])
def test_record_dict_with_a_non_finite_number(number: float) -> None:
    """Refused as what it is, not as invalid JSON at a column of text the caller never wrote."""
    record = Game(seed=1).to_record()
    record["pile"][0] = number
    with pytest.raises(indigo.RecordError, match=r"not JSON data .*not JSON compliant") as info:
        Game.from_record(record)
    assert info.value.at == "format"


def test_game_seed_is_deterministic() -> None:
    assert Game(seed=5).pile == Game(Rules(4, 2), seed=5).pile
    assert Game(seed=5).pile != Game(seed=6).pile
    assert Game(seed=5) == Game(seed=5)


@pytest.mark.parametrize(
    "pile",
    [
        [],
        BOX[:-1],
        [*BOX, 0],
        [5, *BOX[1:]],
        [-1, *BOX[1:]],
        [0, *BOX[:-1]],  # fifteen 0s, five 4s
    ],
    ids=["empty", "short", "long", "type-5", "negative", "wrong-counts"],
)
def test_game_bad_pile(pile: list[int]) -> None:
    with pytest.raises(IndigoError):
        Game(Rules(), pile=pile)


# ------------------------------------------------------------------------------------------
# Legal moves, play, illegal moves
# ------------------------------------------------------------------------------------------


def test_legal_moves_and_is_legal(config: tuple[int, int, str]) -> None:
    pile = make_pile(seed=77 + config[0] + config[1])
    game = Game(make_rules(config), pile=pile)
    ref = RefGame(*config, pile)
    for step in range(6):
        check_legal_list(game, ref)
        for tile, rotation, (q, r) in itertools.product(range(5), range(6), ALL_CELLS):
            expected = ref.is_legal((tile, rotation, q, r))
            assert game.is_legal(Move(tile, rotation, q, r)) is expected, (tile, rotation, q, r)
        assert game.is_legal(str(game.legal_moves[0]))
        m = game.legal_moves[(step * 37) % len(game.legal_moves)]
        game.play(m)
        ref.play(m)


def test_play_accepts_notation() -> None:
    game = game_with([4, 1])
    assert game.is_legal("4@0:0,-3")
    assert game.is_legal("4@0 (0,-3)")
    assert not game.is_legal("4@0:-1,-3")
    result = game.play("4@0:0,-3")
    assert result.move.canonical() == Move(4, 0, 0, -3)
    assert game.moves == [Move(4, 0, 0, -3)]
    assert game.tile_at(0, -3) == (4, 0)


def test_illegal_moves_change_nothing() -> None:
    # Seat 0 holds {2, 4}, seat 1 {1, 2}; then seat 0 draws 3, seat 1 draws 4, seat 0 draws 0.
    game = game_with([4, 1, 2, 2, 3, 4], players=2, hand_size=2)
    for m in [Move(4, 0, 0, -3), Move(2, 0, 0, -1), Move(3, 0, 2, -1)]:
        game.play(m)
    assert game.to_move == 1
    assert game.hand(1) == [1, 4]
    before = game.snapshot(legal=True)
    before_json = game.snapshot_json(legal=True)
    clone = game.clone()
    moves = list(game.moves)
    last = game.last_result
    kinds = illegal_moves(game)
    assert all(kinds.values()), kinds
    assert len(kinds["occupied"]) == 6
    assert len(kinds["centre"]) == 2
    assert len(kinds["corner"]) == 12
    assert {m.tile for m in kinds["not-in-hand"]} == {0, 2, 3}
    # Type 4 joins adjacent edges at every rotation: on each of the 18 gate cells, the
    # rotations that join that gate's exits are exactly half of the six.
    assert len([m for m in kinds["gate"] if m.tile == 4]) == 18 * 3
    for m in itertools.chain.from_iterable(kinds.values()):
        assert not game.is_legal(m), m
        with pytest.raises(IllegalMoveError):
            game.play(m)
        with pytest.raises(IllegalMoveError):
            game.play(str(m))
        assert game == clone
        assert game.snapshot(legal=True) == before
        assert game.snapshot_json(legal=True) == before_json
        assert game.moves == moves
        assert game.last_result is not None
        assert game.last_result.move == last.move  # type: ignore[union-attr]


@pytest.mark.parametrize("text", ["garbage", "4@0", "9@0:0,-3", "4@0:9,9"])
def test_play_bad_notation_changes_nothing(text: str) -> None:
    game = game_with([4, 1])
    before = game.snapshot(legal=True)
    with pytest.raises(MoveError):
        game.play(text)
    with pytest.raises(MoveError):
        game.is_legal(text)
    assert game.snapshot(legal=True) == before
    assert game.moves == []


def test_play_after_game_over() -> None:
    record = load_vector("game-02.json")["record"]
    game = Game.from_record(record)
    assert game.over
    assert game.to_move is None
    assert game.legal_moves == []
    before = game.snapshot(legal=True)
    empty = [c for c in ROUTE_CELLS if game.tile_at(*c) is None]
    assert empty
    for tile in range(5):
        for q, r in empty[:3]:
            m = Move(tile, 0, q, r)
            assert not game.is_legal(m)
            with pytest.raises(IllegalMoveError):
                game.play(m)
    assert game.snapshot(legal=True) == before


@pytest.mark.parametrize("tile", [0, 1, 2, 4])
@pytest.mark.parametrize("cell", [(0, -3), (0, -1), (2, -1)], ids=["arrow", "centre", "plain"])
def test_equivalent_rotation_is_the_same_move(tile: int, cell: tuple[int, int]) -> None:
    for rotation in range(6):
        canon = canonical_rotation(tile, rotation)
        if canon == rotation:
            continue
        a = game_with([tile, 2])
        b = game_with([tile, 2])
        assert a.is_legal(Move(tile, rotation, *cell))
        ra = a.play(Move(tile, rotation, *cell))
        rb = b.play(Move(tile, canon, *cell))
        assert a == b
        assert hash(a) == hash(b)
        assert a.snapshot(legal=True) == b.snapshot(legal=True)
        assert a.tile_at(*cell) == (tile, canon)
        assert a.snapshot()["board"] == [
            {"q": cell[0], "r": cell[1], "tile": tile, "rotation": canon}
        ]
        assert a.moves == [Move(tile, rotation, *cell)]  # as given
        assert ra.points == rb.points
        assert [(p.gem, p.outcome, tuple(p.start), path_tuples(p)) for p in ra.paths] == [
            (p.gem, p.outcome, tuple(p.start), path_tuples(p)) for p in rb.paths
        ]


def test_rotation_matters_for_type_3() -> None:
    """Type 3 has six distinct rotations: each gives a different position."""
    snaps = set()
    for rotation in range(6):
        g = game_with([3, 2])
        g.play(Move(3, rotation, 0, -3))
        snaps.add(g.snapshot_json())
    assert len(snaps) == 6


# ------------------------------------------------------------------------------------------
# Undo, clone, pickle, equality
# ------------------------------------------------------------------------------------------


def play_prefix(name: str, n: int) -> Game:
    record = load_vector(name)["record"]
    return Game.from_record({**record, "moves": record["moves"][:n]})


def test_undo_fresh_game() -> None:
    game = Game(Rules(), seed=3)
    with pytest.raises(IndigoError):
        game.undo()
    assert game == Game(Rules(), seed=3)


@pytest.mark.parametrize("name", ["game-04.json", "game-07.json", "game-16.json"])
def test_undo_walks_back_the_vector(name: str) -> None:
    d = load_vector(name)
    record, snapshots = d["record"], d["snapshots"]
    game = Game.from_record(record)
    for i in range(len(record["moves"]) - 1, -1, -1):
        m = game.undo()
        assert m == Move(**record["moves"][i])  # as given
        snap = normalise(game.snapshot(legal=True))
        assert {k: snap[k] for k in snapshots[i]} == snapshots[i], f"after undoing move {i}"
        assert len(game.moves) == i
    with pytest.raises(IndigoError):
        game.undo()
    assert game == Game.from_record({**record, "moves": []})


def test_undo_then_replay() -> None:
    game = play_prefix("game-02.json", 20)
    record = load_vector("game-02.json")["record"]
    before = game.snapshot(legal=True)
    clone = game.clone()
    nxt = Move(**record["moves"][20])
    result = game.play(nxt)
    after = game.snapshot(legal=True)
    assert game.undo() == nxt
    assert game == clone
    assert game.snapshot(legal=True) == before
    again = game.play(nxt)
    assert game.snapshot(legal=True) == after
    assert again.points == result.points
    assert game.last_result is not None
    assert game.last_result.move == again.move


def test_last_result() -> None:
    game = game_with([4, 1], players=4)
    first = game.play(Move(4, 0, 0, -3))
    assert game.last_result is not None
    assert game.last_result.move == first.move
    second = game.play(Move(1, 0, -1, -3))
    assert game.last_result.points == second.points == [0, 0, 1, 1]  # type: ignore[union-attr]


@pytest.mark.parametrize("method", ["clone", "copy.copy", "copy.deepcopy"])
def test_clone_is_equal_and_independent(method: str) -> None:
    game = play_prefix("game-13.json", 12)
    make = {
        "clone": lambda g: g.clone(),
        "copy.copy": copy.copy,
        "copy.deepcopy": copy.deepcopy,
    }[method]
    twin = make(game)
    assert twin is not game
    assert twin == game
    assert hash(twin) == hash(game)
    assert twin.snapshot(legal=True) == game.snapshot(legal=True)
    assert twin.moves == game.moves
    assert twin.rules == game.rules
    before = game.snapshot(legal=True)
    twin.play(twin.legal_moves[-1])
    assert twin != game
    assert game.snapshot(legal=True) == before
    assert len(game.moves) == 12
    twin.undo()
    twin.undo()
    assert game.snapshot(legal=True) == before
    assert len(game.moves) == 12
    game.undo()
    assert twin == game


@pytest.mark.parametrize("protocol", range(2, pickle.HIGHEST_PROTOCOL + 1))
def test_pickle_game(protocol: int) -> None:
    game = play_prefix("game-08.json", 17)
    assert_pickle_round_trip(game, protocol)


def test_pickle_keeps_rules_options() -> None:
    rules = Rules(3, 2, tie_break="shared", open_hands=True, theme="butterfly-garden")
    game = Game(rules, seed=11)
    game.play(game.legal_moves[5])
    back = pickle.loads(pickle.dumps(game))
    assert back.rules == rules
    assert back == game
    assert back.snapshot(seat=1) == game.snapshot(seat=1)


def test_pickle_fresh_and_finished_games() -> None:
    for game in (
        Game(Rules(4, 2), seed=8),
        Game.from_record(load_vector("game-05.json")["record"]),
    ):
        back = pickle.loads(pickle.dumps(game))
        assert back == game
        assert back.snapshot(legal=True) == game.snapshot(legal=True)


def test_equal_positions_hash_equal() -> None:
    """Different move orders that reach the same position give equal games with equal hashes."""
    a = game_with([1, 2, 1])
    b = game_with([1, 2, 1])
    for m in [Move(1, 0, 2, -1), Move(2, 0, -2, 1), Move(1, 0, -1, 2)]:
        a.play(m)
    for m in [Move(1, 0, -1, 2), Move(2, 0, -2, 1), Move(1, 3, 2, -1)]:
        b.play(m)
    assert a.moves != b.moves
    assert a == b
    assert hash(a) == hash(b)
    assert a.snapshot(legal=True) == b.snapshot(legal=True)
    assert len({a, b}) == 1
    b.undo()
    assert a != b
    assert a != "game"


def test_equality_sees_the_pile() -> None:
    """Same visible position, different pile order: different games."""
    a = game_with([0, 0, 1, 2, 3, 4])
    b = game_with([0, 0, 1, 2, 4, 3])
    assert a.snapshot() == b.snapshot()
    assert a != b


# ------------------------------------------------------------------------------------------
# Views
# ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("open_hands", [False, True])
def test_seat_view(open_hands: bool) -> None:
    game = Game(Rules(3, 2, open_hands=open_hands), pile=make_pile([0, 1, 2, 3, 4, 0], seed=1))
    game.play(game.legal_moves[3])
    full = game.snapshot()
    assert full["hands"] == [list(h) for h in game.hands]
    for seat in range(3):
        view = game.snapshot(seat=seat)
        expected_hands = [
            list(h) if (s == seat or open_hands) else [None] * len(h)
            for s, h in enumerate(game.hands)
        ]
        assert view["hands"] == expected_hands
        assert [list(h) for h in game.visible_hands(seat)] == expected_hands
        assert {k: v for k, v in view.items() if k != "hands"} == {
            k: v for k, v in full.items() if k != "hands"
        }
        assert json.loads(game.snapshot_json(seat=seat))["hands"] == expected_hands
    assert game.snapshot(seat=None) == full


def test_accessors_match_snapshot() -> None:
    game = play_prefix("game-11.json", 30)
    snap = game.snapshot()
    assert game.to_move == snap["to_move"]
    assert game.moves_played == snap["placed"] == len(game.board)
    assert game.pile_left == snap["pile_left"]
    assert [list(h) for h in game.hands] == snap["hands"]
    assert {(b["q"], b["r"]): (b["tile"], b["rotation"]) for b in snap["board"]} == {
        tuple(k): tuple(v) for k, v in game.board.items()
    }
    for b in snap["board"]:
        assert tuple(game.tile_at(b["q"], b["r"])) == (b["tile"], b["rotation"])  # type: ignore[arg-type]
    assert game.tile_at(0, 0) is None
    assert [{"gem": g, "q": q, "r": r, "edge": e} for g, q, r, e in game.gems] == snap["gems"]
    assert list(game.centre) == snap["centre"]
    assert list(game.scores) == snap["scores"]
    assert [dict(c) for c in game.collected] == snap["collected"]
    assert game.removed == snap["removed"]
    assert game.over == snap["over"]
    assert list(game.winners) == snap["winners"]


def test_snapshot_json_is_compact_and_sorted() -> None:
    game = play_prefix("game-06.json", 9)
    for kwargs in ({}, {"legal": True}, {"seat": 1}):
        text = game.snapshot_json(**kwargs)  # type: ignore[arg-type]
        parsed = json.loads(text)
        assert parsed == normalise(game.snapshot(**kwargs))  # type: ignore[arg-type]
        assert text == json.dumps(parsed, sort_keys=True, separators=(",", ":"))


# ------------------------------------------------------------------------------------------
# Worked examples of docs/spec/RULES.md section 10
# ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "gates", "key"),
    [
        (4, "shared", "4"),
        (2, "shared", "2"),
        (3, "shared", "3-shared"),
        (3, "exclusive", "3-exclusive"),
    ],
)
def test_example_amber_to_gate(players: int, gates: str, key: str) -> None:
    game = game_with([4, 1], players=players, three_player_gates=gates)
    first = game.play(Move(4, 0, 0, -3))
    assert isinstance(first, MoveResult)
    assert first.seat == 0
    assert first.move == Move(4, 0, 0, -3)
    assert len(first.paths) == 1
    p = first.paths[0]
    assert p.gem == "amber"
    assert tuple(p.start) == (0, -4, 3)
    assert path_tuples(p) == [(0, -3, 0, 5)]
    assert p.outcome == "rested"
    assert tuple(p.end) == (0, -3, 5)  # type: ignore[arg-type]
    assert p.gate is None
    assert list(p.owners) == []
    assert p.collided_with is None
    assert list(first.points) == [0] * players
    assert list(first.collisions) == []
    assert first.game_over is False
    assert ("amber", 0, -3, 5) in gem_tuples(game)
    assert ("amber", 0, -4, 3) not in gem_tuples(game)

    second = game.play(Move(1, 0, -1, -3))
    assert second.seat == 1
    assert len(second.paths) == 1
    p = second.paths[0]
    assert p.gem == "amber"
    assert tuple(p.start) == (0, -3, 5)
    assert path_tuples(p) == [(-1, -3, 2, 5)]
    assert p.outcome == "collected"
    assert p.gate == 5
    assert p.end is None
    owners = GATE_OWNERS[owners_key(players, gates)][5]
    assert list(p.owners) == owners
    if players == 4:
        assert owners == [2, 3]
    points = [1 if s in owners else 0 for s in range(players)]
    assert list(second.points) == points
    assert list(game.scores) == points
    for s in range(players):
        assert dict(game.collected[s]) == {**ZERO, "amber": 1 if s in owners else 0}
    assert gem_tuples(game) == [g for g in START_AMBERS if g[1:3] != (0, -4)]
    assert game.removed == 0
    assert key == owners_key(players, gates)


def test_example_gate_restriction() -> None:
    game = game_with([4, 4])
    assert not game.is_legal(Move(4, 0, -1, -3))  # gate 5 exits {5, 0}; 4@0 joins 0-5
    assert not game.is_legal(Move(4, 2, -1, -3))  # the same placement
    assert game.is_legal(Move(4, 0, 1, -4))  # gate 0 exits {0, 1}
    assert not game.is_legal(Move(4, 1, 1, -4))  # joins 0-1
    assert not game.is_legal(Move(4, 3, 1, -4))  # the same placement as 4@1
    legal = {move_tuple(m) for m in game.legal_moves}
    assert (4, 0, 1, -4) in legal
    assert (4, 0, -1, -3) not in legal
    assert (4, 1, 1, -4) not in legal
    assert (4, 1, -1, -3) in legal
    before = game.snapshot(legal=True)
    for bad in (Move(4, 0, -1, -3), Move(4, 1, 1, -4)):
        with pytest.raises(IllegalMoveError):
            game.play(bad)
    assert game.snapshot(legal=True) == before
    game.play(Move(4, 0, 1, -4))
    assert game.tile_at(1, -4) == (4, 0)


def test_example_centre_order() -> None:
    game = game_with([1] * 6)
    order = [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)]
    expected_gems = ["emerald"] * 5 + ["sapphire"]
    for d, cell in enumerate(order):
        assert cell == (CORNERS[d][0] // 4, CORNERS[d][1] // 4)
        result = game.play(Move(1, 0, *cell))
        assert result.seat == d % 2
        assert len(result.paths) == 1
        p = result.paths[0]
        assert p.gem == expected_gems[d]
        assert tuple(p.start) == (0, 0, d)
        assert path_tuples(p) == [(*cell, (d + 3) % 6, d)]
        assert p.outcome == "rested"
        assert tuple(p.end) == (*cell, d)  # type: ignore[arg-type]
        assert list(game.centre) == expected_gems[d + 1 :]
    centre_gems = [
        (g, q, r, d) for d, (g, (q, r)) in enumerate(zip(expected_gems, order, strict=True))
    ]
    assert gem_tuples(game) == sorted([*START_AMBERS, *centre_gems], key=lambda g: g[1:])
    assert list(game.scores) == [0, 0]
    assert game.removed == 0


def collided_pair(result: MoveResult) -> set[tuple[str, tuple[int, int, int]]]:
    assert len(result.collisions) == 1
    i, j = result.collisions[0]
    assert i != j
    a, b = result.paths[i], result.paths[j]
    assert a.outcome == b.outcome == "collided"
    assert a.collided_with == j
    assert b.collided_with == i
    for p in (a, b):
        assert p.end is None
        assert p.gate is None
        assert list(p.owners) == []
    for k, p in enumerate(result.paths):
        if k not in (i, j):
            assert p.outcome != "collided"
    return {(a.gem, tuple(a.start)), (b.gem, tuple(b.start))}  # type: ignore[misc]


def test_example_collision() -> None:
    game = game_with([1, 1, 1])
    game.play(Move(1, 0, 0, -1))
    assert ("emerald", 0, -1, 0) in gem_tuples(game)
    game.play(Move(1, 0, 0, -3))
    assert ("amber", 0, -3, 3) in gem_tuples(game)
    result = game.play(Move(1, 0, 0, -2))
    assert collided_pair(result) == {("amber", (0, -3, 3)), ("emerald", (0, -1, 0))}
    assert list(result.points) == [0, 0]
    assert result.game_over is False
    assert game.removed == 2
    assert list(game.centre) == ["emerald"] * 4 + ["sapphire"]
    assert gem_tuples(game) == [g for g in START_AMBERS if g[1:3] != (0, -4)]
    assert list(game.scores) == [0, 0]
    snap = game.snapshot()
    assert snap["removed"] == 2
    assert snap["centre"] == ["emerald"] * 4 + ["sapphire"]


def test_example_u_turn() -> None:
    game = game_with([4, 2, 1])
    first = game.play(Move(4, 1, 3, -3))
    assert [(p.gem, tuple(p.start), tuple(p.end)) for p in first.paths] == [  # type: ignore[arg-type]
        ("amber", (4, -4, 4), (3, -3, 0))
    ]
    assert ("amber", 3, -3, 0) in gem_tuples(game)
    second = game.play(Move(2, 0, 3, -4))
    assert len(second.paths) == 1
    p = second.paths[0]
    assert tuple(p.start) == (3, -3, 0)
    assert path_tuples(p) == [(3, -4, 3, 2), (4, -4, 5, 3)]
    assert p.outcome == "rested"
    assert tuple(p.end) == (4, -4, 3)  # type: ignore[arg-type]
    assert ("amber", 4, -4, 3) in gem_tuples(game)
    assert game.snapshot()["gems"][-2:] == [
        {"gem": "amber", "q": 4, "r": -4, "edge": 3},
        {"gem": "amber", "q": 4, "r": 0, "edge": 5},
    ]
    third = game.play(Move(1, 0, 4, -3))
    p = third.paths[0]
    assert len(third.paths) == 1
    assert tuple(p.start) == (4, -4, 3)
    assert path_tuples(p) == [(4, -3, 0, 3)]
    assert tuple(p.end) == (4, -3, 3)  # type: ignore[arg-type]
    assert ("amber", 4, -3, 3) in gem_tuples(game)
    assert not [g for g in gem_tuples(game) if g[1:3] == (4, -4)]
    assert list(game.scores) == [0, 0]


def test_example_release_meets_incoming() -> None:
    game = game_with([1, 1, 1])
    game.play(Move(1, 0, 0, -3))
    assert ("amber", 0, -3, 3) in gem_tuples(game)
    game.play(Move(1, 0, 0, -2))
    assert ("amber", 0, -2, 3) in gem_tuples(game)
    result = game.play(Move(1, 0, 0, -1))
    assert collided_pair(result) == {("amber", (0, -2, 3)), ("emerald", (0, 0, 0))}
    assert list(result.points) == [0, 0]
    assert game.removed == 2
    assert list(game.centre) == ["emerald"] * 4 + ["sapphire"]
    assert gem_tuples(game) == [g for g in START_AMBERS if g[1:3] != (0, -4)]
    # Never at rest facing the centre or an emptied arrow.
    assert all((q, r) != (0, -1) for _, q, r, _ in gem_tuples(game))


# ------------------------------------------------------------------------------------------
# Bots
# ------------------------------------------------------------------------------------------


def test_random_bot() -> None:
    game = play_prefix("game-09.json", 10)
    before = game.snapshot(legal=True)
    legal = set(game.legal_moves)
    picks = set()
    for seed in range(20):
        m = RandomBot(seed).choose(game)
        assert m in legal
        assert RandomBot(seed).choose(game) == m
        picks.add(m)
    assert len(picks) >= 2
    assert game.snapshot(legal=True) == before


def greedy_value(game: Game, move: Move) -> int:
    seat = game.to_move
    g = game.clone()
    points = g.play(move).points
    return points[seat] - max(p for s, p in enumerate(points) if s != seat)  # type: ignore[index]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_greedy_bot_two_players(seed: int) -> None:
    # Seat 1 can score at once: 1@0 on (-1,-3) takes the amber out through gate 5 (seat 1's).
    game = game_with([4, 1])
    game.play(Move(4, 0, 0, -3))
    before = game.snapshot(legal=True)
    m = GreedyBot(seed).choose(game)
    assert m in set(game.legal_moves)
    assert greedy_value(game, m) == max(greedy_value(game, x) for x in game.legal_moves) >= 1
    assert GreedyBot(seed).choose(game) == m
    assert game.snapshot(legal=True) == before


def test_greedy_bot_along_a_game() -> None:
    game = Game(Rules(2, 2), seed=99)
    bot = GreedyBot(5)
    for _ in range(12):
        if game.over:
            break
        m = bot.choose(game)
        values = [greedy_value(game, x) for x in game.legal_moves]
        assert greedy_value(game, m) == max(values)
        game.play(m)

"""The Python API of ``indigo.queens_garden``: rules, moves, games, seeded set-up, records,
copies and pickles, and the demo bot."""

from __future__ import annotations

import copy
import json
import pickle
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import indigo
from indigo import queens_garden as qg
from qg_support import GAME_NAMES, KIND_ID, load


def test_exported_from_indigo() -> None:
    assert indigo.queens_garden is qg
    assert "queens_garden" in indigo.__all__
    # Indigo's own names are untouched.
    assert indigo.Game is not qg.Game
    assert indigo.Rules is not qg.Rules
    assert indigo.Move is not qg.Move
    for name in qg.__all__:
        assert hasattr(qg, name), name


def test_tables() -> None:
    assert len(qg.KINDS) == 36
    assert qg.KINDS[0] == "bl1"
    assert qg.KINDS[5] == "bl6"
    assert qg.KINDS[6] == "ye1"
    assert qg.KINDS[35] == "dp6"
    assert qg.ATTRIBUTES == ("bl", "ye", "lg", "dg", "lp", "dp", "1", "2", "3", "4", "5", "6")
    assert len(qg.CELLS) == 48
    assert qg.CELLS[:8] == ("f0", "f1", "f2", "f3", "f4", "f5", "a0c", "a00")
    assert qg.CELLS[-1] == "a55"
    assert (qg.kind_colour("lg4"), qg.kind_value("lg4")) == ("lg", 4)


def test_rules_defaults_and_settings() -> None:
    rules = qg.Rules(3)
    assert rules.players == 3
    assert rules.stack_size == 7
    assert rules.wheel == [["bl", "dg", "1"], ["ye", "2", "3"], ["lg", "lp", "4"], ["dp", "5", "6"]]
    assert rules.jokers == {"fountain": 1, "statue": 2, "bench": 2, "pavilion": 3}
    assert tuple(tuple(r) for r in rules.wheel) == qg.DEFAULT_WHEEL
    assert rules.jokers == qg.DEFAULT_JOKERS
    assert "PLACEHOLDER" in (qg.Rules.__doc__ or "")
    assert [qg.Rules(n).stack_size for n in (2, 3, 4)] == [5, 7, 8]
    wheel = [["1", "2", "3"], ["bl", "ye", "lg"], ["4", "5", "6"], ["dg", "lp", "dp"]]
    jokers = {"fountain": 0, "statue": 3, "bench": 1, "pavilion": 12}
    custom = qg.Rules(4, wheel=wheel, jokers=jokers)
    assert custom.wheel == wheel
    assert custom.jokers == jokers
    assert custom != qg.Rules(4)
    assert custom == qg.Rules(4, wheel=[tuple(r) for r in wheel], jokers=dict(jokers))
    assert hash(custom) == hash(qg.Rules(4, wheel=wheel, jokers=jokers))
    assert pickle.loads(pickle.dumps(custom)) == custom
    assert custom.to_dict() == {"players": 4, "wheel": wheel, "jokers": jokers}
    assert "Rules(" in repr(custom)
    # A category may come back in a later round.
    assert qg.Rules(2, wheel=[["bl", "ye", "1"]] * 4).wheel[3] == ["bl", "ye", "1"]


def test_custom_rules_reach_the_record() -> None:
    wheel = [["1", "2", "3"], ["bl", "ye", "lg"], ["4", "5", "6"], ["dg", "lp", "dp"]]
    jokers = {"fountain": 2, "statue": 2, "bench": 2, "pavilion": 2}
    game = qg.Game(qg.Rules(2, wheel=wheel, jokers=jokers), seed=5)
    record = game.to_record()
    assert record["rules"]["wheel"] == wheel
    assert record["rules"]["jokers"] == jokers
    assert qg.Game.from_record(record).rules == game.rules


def test_moves() -> None:
    move = qg.Move.parse("tile bl3 f0 * ye3")
    assert str(move) == "tile bl3 f0 ye3 *"
    assert move == qg.Move.parse("tile bl3 f0 ye3 *")
    assert hash(move) == hash(qg.Move.parse("tile bl3 f0 ye3 *"))
    assert move != qg.Move.parse("tile bl3 f0 ye3x *")
    assert move.verb == "tile"
    assert [qg.Move.parse(t).verb for t in ("take 2 ye2@0", "exp lg1 a03", "buy a2", "pass")] == [
        "take",
        "exp",
        "buy",
        "pass",
    ]
    assert str(qg.Move.parse("pass dg4x bl1 bl1")) == "pass bl1 bl1 dg4x"
    assert pickle.loads(pickle.dumps(move)) == move
    assert copy.copy(move) == move
    assert repr(move) == "Move.parse('tile bl3 f0 ye3 *')"
    assert move != "tile bl3 f0 ye3 *"


def test_seeded_game() -> None:
    game = qg.Game(qg.Rules(2), seed=7)
    assert game.seed == 7
    assert game == qg.Game(qg.Rules(2), seed=7)
    assert game != qg.Game(qg.Rules(2), seed=8)
    assert game.rules == qg.Rules(2)
    assert game.round == 1
    assert game.phase == "actions"
    assert game.to_move == 0
    assert game.start_player == 0
    assert game.first_passer is None
    assert game.passed == [False, False]
    assert game.scores == [15, 15]
    assert game.storages == [{"tiles": [], "jokers": 3, "expansions": []}] * 2
    assert game.gardens == [{"tiles": {}, "areas": [None] * 6}] * 2
    assert game.display == []
    stack = game.stack
    assert stack is not None
    assert (stack["slot"], len(stack["tiles"]), stack["below"]) == (0, 4, 4)
    assert (game.bag_size, game.tower, game.supply_size) == (104, [], 16)
    assert game.round_points == []
    assert game.final_scoring is None
    assert game.winners == []
    assert game.moves == []
    legal = game.legal_moves
    assert legal[-1] == qg.Move.parse("pass")
    assert [m.verb for m in legal].count("buy") == 6
    # Play, then the history and the undo.
    first = game.play(legal[0]).move
    assert game.moves == [first]
    assert game.moves_played == 1
    assert game.undo() == first
    assert game == qg.Game(qg.Rules(2), seed=7)
    # Default rules: two players.
    assert qg.Game(seed=1).rules == qg.Rules(2)
    # Without a seed the system picks one, and says which.
    unseeded = qg.Game(qg.Rules(3))
    assert isinstance(unseeded.seed, int)
    assert unseeded == qg.Game(qg.Rules(3), seed=unseeded.seed)


def test_example_16_1_through_the_api() -> None:
    """QUEENS_GARDEN.md example 16.1 from a record whose bag starts as the example says."""
    vector = load(GAME_NAMES[0])["record"]
    head = ["bl1", "bl2", "bl4", "ye2", "ye2", "lg2", "lg1", "dp5", "bl5", "ye6", "dg3", "lp4"]
    rest = list(vector["bag"])
    for kind in head:
        rest.remove(kind)
    expansions = ["lg1", *(k for k in vector["expansions"] if k != "lg1")]
    record = {
        "format": qg.RECORD_FORMAT,
        "rules": {"players": 2},
        "bag": head + rest,
        "expansions": expansions,
        "moves": ["take bl", "take 2 ye2@0"],
    }
    game = qg.Game.from_record(record)
    assert game.storages[0]["tiles"] == ["bl1", "bl2", "bl4"]
    assert game.storages[1]["tiles"] == ["ye2", "lg2"]
    assert game.stack == {"slot": 2, "tiles": ["bl5", "ye6", "dg3", "lp4"], "below": 2}
    assert game.display == [
        {"slot": 0, "face": "up", "kind": "lg1"},
        {"slot": 1, "face": "down", "tiles": ["ye2", "lg1", "dp5"]},
    ]
    assert game.is_legal("take 1 lg1@0")
    assert game.is_legal("take 1 lg1@1")
    assert not game.is_legal("take 1 lg1@2")
    with pytest.raises(indigo.MoveError):
        game.is_legal("take 1 lg1@")


def test_refills_follow_the_documented_shuffle() -> None:
    """Refill k is the sorted tiles shuffled with ``random.Random(seed + (k + 1) * 2**64)``."""
    checked = 0
    for seed in range(40):
        game = qg.Game(qg.Rules(4), seed=seed)
        bot = qg.make_bot("random", seed=seed)
        while not game.over:
            game.play(bot.choose(game))
        refills = game.to_record()["refills"]
        assert len(refills) == game.refills_used
        for k, refill in enumerate(refills):
            expected = sorted(refill, key=KIND_ID.__getitem__)
            random.Random(seed + (k + 1) * 2**64).shuffle(expected)
            assert refill == expected
            checked += 1
        # The record with its refills replays the game exactly (the copy refills from the
        # record's list, not from the seed, so the games are not ==).
        replayed = qg.Game.from_record(game.to_record())
        assert replayed.snapshot_json(legal=True) == game.snapshot_json(legal=True)
        assert replayed.to_record()["refills"] == refills
        assert replayed.seed is None
        if checked >= 2:
            break
    assert checked >= 1


def test_random_bot_is_seeded() -> None:
    def play(seed: int) -> list[qg.Move]:
        game = qg.Game(qg.Rules(3), seed=11)
        bot = qg.make_bot("random", seed=seed)
        while not game.over:
            game.play(bot.choose(game))
        return game.moves

    assert play(1) == play(1)
    assert play(1) != play(2)
    over = qg.Game.from_record(load(GAME_NAMES[0])["record"])
    with pytest.raises(indigo.IllegalMoveError):
        qg.make_bot("random", seed=0).choose(over)


def test_copy_and_pickle_mid_game() -> None:
    game = qg.Game(qg.Rules(2), seed=3)
    bot = qg.make_bot("random", seed=3)
    for _ in range(25):
        game.play(bot.choose(game))
    for other in (copy.copy(game), copy.deepcopy(game), game.clone()):
        assert other == game
        other.play(other.legal_moves[0])
        assert other != game
    twin = pickle.loads(pickle.dumps(game))
    assert twin == game
    assert twin.seed == 3
    assert twin.moves == game.moves
    assert twin.snapshot_json(legal=True) == game.snapshot_json(legal=True)
    # Games are mutable: not hashable.
    with pytest.raises(TypeError):
        hash(game)


def _resampled_mid_game() -> qg.Game:
    game = qg.Game(qg.Rules(3), seed=11)
    bot = qg.make_bot("random", seed=11)
    for _ in range(40):
        game.play(bot.choose(game))
    resampled = game.resample(1, seed=5)
    resampled.play(bot.choose(resampled))
    return resampled


def test_pickle_state_is_versioned_json_bytes() -> None:
    game = _resampled_mid_game()
    state = json.loads(game.__getstate__())
    assert state["format"] == "queens-garden-state/1"
    assert len(state["moves"]) == 1  # played since the resample; undo goes back to it
    twin = qg.Game()
    twin.__setstate__(game.__getstate__())
    assert twin == game
    assert twin.undo() == game.moves[0]


def _forged(edit: str) -> bytes:
    state = json.loads(_resampled_mid_game().__getstate__())
    position = state["position"]
    if edit == "format":
        state["format"] = "queens-garden-state/0"
    elif edit == "bag":
        position["bag"][0] = 36
    elif edit == "bag_range":
        position["bag_start"] = position["bag_end"] + 1
    elif edit == "tiles":
        position["storages"][0]["tiles"].append(0)
    elif edit == "garden":
        garden = position["gardens"][0]
        garden["tiles"].append(garden["tiles"][0] if garden["tiles"] else [47, 0])
    elif edit == "expansions":
        position["expansions"][0] = position["expansions"][1]
    elif edit == "seat":
        position["to_move"] = 3
    elif edit == "move":
        state["moves"] = ["buy 9"]
    elif edit == "missing":
        del position["tower"]
    return json.dumps(state).encode()


@pytest.mark.parametrize(
    "edit",
    ["format", "bag", "bag_range", "tiles", "garden", "expansions", "seat", "move", "missing"],
)
def test_forged_pickle_state_raises_and_changes_nothing(edit: str) -> None:
    game = qg.Game(qg.Rules(2), seed=1)
    before = game.snapshot_json(legal=True)
    with pytest.raises(indigo.RecordError):
        game.__setstate__(_forged(edit))
    assert game.snapshot_json(legal=True) == before
    with pytest.raises(indigo.RecordError):
        game.__setstate__(b"\xff not json")
    with pytest.raises(TypeError):
        game.__setstate__(12)  # type: ignore[arg-type]
    assert game.snapshot_json(legal=True) == before


def _integer_paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    if isinstance(value, bool):
        return []
    if isinstance(value, int):
        return [path]
    items = (
        value.items()
        if isinstance(value, dict)
        else enumerate(value)
        if isinstance(value, list)
        else []
    )
    return [p for k, v in items for p in _integer_paths(v, (*path, k))]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    pick=st.integers(0, 2**32),
    number=st.sampled_from(
        [-1, 0, 1, 2, 3, 4, 5, 6, 12, 35, 36, 47, 48, 107, 108, 255, 256, 2**40]
    ),
    choices=st.integers(0, 2**32),
)
def test_any_forged_number_raises_or_plays_on(pick: int, number: int, choices: int) -> None:
    """Changing any one number of a state gives a typed error or a game that plays to its end
    (no panic, which would escape as a BaseException)."""
    state = json.loads(_resampled_mid_game().__getstate__())
    paths = _integer_paths(state)
    *parents, last = paths[pick % len(paths)]
    holder = state
    for key in parents:
        holder = holder[key]
    holder[last] = number
    game = qg.Game()
    try:
        game.__setstate__(json.dumps(state).encode())
    except indigo.RecordError:
        return
    rng = random.Random(choices)
    for _ in range(500):
        if game.over or not game.legal_moves:
            break
        game.snapshot_json(legal=True)
        game.observation(0)
        try:
            game.play(rng.choice(game.legal_moves))
        except indigo.IllegalMoveError:
            break  # a refill the forged state cannot make

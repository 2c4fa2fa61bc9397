"""Property-based tests: random legal play in every configuration.

Hypothesis draws a configuration, a seed (the pile) and a list of choice indices; each index picks
a legal move (and, often, an equivalent non-smallest rotation of it). The engine is compared with
``reference.RefGame`` (an independent model of docs/spec/RULES.md) and with its own invariants.
"""

from __future__ import annotations

import copy
import itertools
import json
import pickle
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import (
    CONFIG_IDS,
    CONFIGS,
    GEM_POINTS,
    GEMS,
    RefGame,
    assert_pickle_round_trip,
    check_legal_list,
    equivalent_rotations,
    illegal_moves,
    make_rules,
    move_tuple,
    normalise,
    python_pile,
)
from indigo import Game, IllegalMoveError, Move, MoveResult

pytestmark = pytest.mark.slow  # left out of scripts/check --quick

PROPERTY = settings(
    max_examples=40,
    deadline=None,
    database=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

configs = st.sampled_from(CONFIGS)
tie_breaks = st.sampled_from(["most-gems", "shared"])
seeds = st.integers(min_value=0, max_value=2**32 - 1)
# 54 choices always reach the end: a game has at most 54 placements.
full_choices = st.lists(st.integers(min_value=0, max_value=2**16), min_size=54, max_size=54)
some_choices = st.lists(st.integers(min_value=0, max_value=2**16), min_size=0, max_size=60)

GEMS_ON_BOARD = {"amber": 6, "emerald": 5, "sapphire": 1}


def pick(game: Game, choice: int) -> Move:
    """A legal move chosen by ``choice``, often written with an equivalent rotation."""
    legal = game.legal_moves
    assert legal, "no legal move while the game is not over"
    m = legal[choice % len(legal)]
    rotations = equivalent_rotations(m.tile, m.rotation)
    rotation = rotations[(choice // len(legal)) % len(rotations)]
    return Move(m.tile, rotation, m.q, m.r)


def new_game(config: tuple[int, int, str], seed: int, tie_break: str = "most-gems") -> Game:
    game = Game(make_rules(config, tie_break=tie_break), seed=seed)
    assert game.pile == python_pile(seed)
    return game


def new_ref(config: tuple[int, int, str], seed: int, tie_break: str = "most-gems") -> RefGame:
    return RefGame(*config, python_pile(seed), tie_break=tie_break)


def snap(game: Game) -> dict[str, Any]:
    return normalise(game.snapshot(legal=True))


def check_result(result: MoveResult, game: Game, before: dict[str, Any], move: Move) -> None:
    """A MoveResult agrees with the positions around it."""
    rules = game.rules
    after = snap(game)
    assert result.seat == before["to_move"]
    assert result.move.canonical() == move.canonical()
    assert result.game_over == after["over"]
    gained = [a - b for a, b in zip(after["scores"], before["scores"], strict=True)]
    assert list(result.points) == gained
    paid = [0] * rules.players
    for i, p in enumerate(result.paths):
        assert p.gem in GEMS
        if p.outcome == "collected":
            assert p.gate in range(6)
            assert list(p.owners) == list(rules.gate_owners(p.gate))  # type: ignore[arg-type]
            assert p.end is None
            assert p.collided_with is None
            for s in p.owners:
                paid[s] += GEM_POINTS[p.gem]
        elif p.outcome == "collided":
            assert p.gate is None
            assert list(p.owners) == []
            assert p.end is None
            j = p.collided_with
            assert j is not None
            assert j != i
            assert result.paths[j].outcome == "collided"
            assert result.paths[j].collided_with == i
        else:
            assert p.outcome == "rested"
            assert p.end is not None
            assert p.gate is None
            assert list(p.owners) == []
            q, r, e = p.end
            assert {"gem": p.gem, "q": q, "r": r, "edge": e} in after["gems"]
    assert paid == gained
    collided = [i for i, p in enumerate(result.paths) if p.outcome == "collided"]
    pairs = sorted(tuple(sorted(c)) for c in result.collisions)
    assert sorted(itertools.chain.from_iterable(pairs)) == collided
    assert after["removed"] - before["removed"] == 2 * len(pairs)


def outcome_counts(result: MoveResult) -> Counter[tuple[str, str, int | None]]:
    return Counter((p.gem, p.outcome, p.gate) for p in result.paths)


def ref_counts(ref: RefGame) -> Counter[tuple[str, str, int | None]]:
    return Counter(ref.last_events)


# ------------------------------------------------------------------------------------------
# The engine plays exactly like the reference model
# ------------------------------------------------------------------------------------------


def play_against_reference(
    config: tuple[int, int, str], seed: int, choices: list[int], tie_break: str = "most-gems"
) -> tuple[Game, list[MoveResult]]:
    game = new_game(config, seed, tie_break)
    ref = new_ref(config, seed, tie_break)
    assert snap(game) == ref.snapshot(legal=True)
    results = []
    for choice in choices:
        if game.over:
            break
        check_legal_list(game, ref)
        move = pick(game, choice)
        before = snap(game)
        result = game.play(move)
        ref.play(move)
        got = snap(game)
        assert got == ref.snapshot(legal=True), f"after {move} (move {len(results)})"
        check_result(result, game, before, move)
        assert outcome_counts(result) == ref_counts(ref), f"gem paths of {move}"
        results.append(result)
    check_legal_list(game, ref)
    return game, results


@pytest.mark.parametrize("config", CONFIGS, ids=CONFIG_IDS)
@pytest.mark.parametrize("seed", [3, 2024])
def test_full_game_matches_reference(config: tuple[int, int, str], seed: int) -> None:
    """One deterministic game per configuration and seed, so every configuration is covered."""
    choices = [(seed * 7919 + i * 104729) % 65536 for i in range(54)]
    game, _ = play_against_reference(config, seed, choices)
    assert game.over


@PROPERTY
@given(config=configs, seed=seeds, choices=full_choices, tie_break=tie_breaks)
def test_random_games_match_reference(
    config: tuple[int, int, str], seed: int, choices: list[int], tie_break: str
) -> None:
    game, _ = play_against_reference(config, seed, choices, tie_break)
    assert game.over


# ------------------------------------------------------------------------------------------
# End of game
# ------------------------------------------------------------------------------------------


@PROPERTY
@given(config=configs, seed=seeds, choices=full_choices, tie_break=tie_breaks)
def test_end_of_game(
    config: tuple[int, int, str], seed: int, choices: list[int], tie_break: str
) -> None:
    game = new_game(config, seed, tie_break)
    players = config[0]
    results: list[MoveResult] = []
    pile_left_before_last = game.pile_left
    for choice in choices:
        if game.over:
            break
        pile_left_before_last = game.pile_left
        hand_before = game.hand(game.to_move)  # type: ignore[arg-type]
        mover = game.to_move
        move = pick(game, choice)
        results.append(game.play(move))
        if not game.over:
            # The mover drew the front tile of the pile, if any.
            assert game.pile_left == max(pile_left_before_last - 1, 0)
            drawn = 1 if pile_left_before_last > 0 else 0
            assert len(game.hand(mover)) == len(hand_before) - 1 + drawn  # type: ignore[arg-type]
    assert game.over
    assert results[-1].game_over
    assert not any(r.game_over for r in results[:-1])
    assert game.to_move is None
    assert game.legal_moves == []
    # No gem left on the board; the mover of the last placement did not draw.
    assert list(game.gems) == []
    assert list(game.centre) == []
    final = game.snapshot()
    assert final["gems"] == []
    assert final["centre"] == []
    assert game.pile_left == pile_left_before_last
    assert game.moves_played == len(results) <= 54
    # 12 = gems collected from the board (a shared gate counts once) + gems removed.
    paths = [p for r in results for p in r.paths]
    collected_paths = [p for p in paths if p.outcome == "collected"]
    collided_paths = [p for p in paths if p.outcome == "collided"]
    assert game.removed % 2 == 0
    assert game.removed == len(collided_paths) == 2 * sum(len(r.collisions) for r in results)
    assert len(collected_paths) + game.removed == 12
    for gem, n in GEMS_ON_BOARD.items():
        assert sum(p.gem == gem for p in collected_paths + collided_paths) == n
    # Each owner of the gate gets one gem and its points.
    collected = [dict(c) for c in game.collected]
    expected_collected = [dict.fromkeys(GEMS, 0) for _ in range(players)]
    for p in collected_paths:
        assert list(p.owners) == list(game.rules.gate_owners(p.gate))  # type: ignore[arg-type]
        for s in p.owners:
            expected_collected[s][p.gem] += 1
    assert collected == expected_collected
    scores = list(game.scores)
    assert scores == [sum(GEM_POINTS[g] * n for g, n in c.items()) for c in collected]
    assert scores == [sum(r.points[s] for r in results) for s in range(players)]
    # Winners follow the tie-break rule.
    best = max(scores)
    tied = [s for s in range(players) if scores[s] == best]
    if tie_break == "most-gems":
        gems = [sum(c.values()) for c in collected]
        most = max(gems[s] for s in tied)
        tied = [s for s in tied if gems[s] == most]
    assert list(game.winners) == tied
    assert final["winners"] == tied
    assert final["over"] is True
    assert final["to_move"] is None


# ------------------------------------------------------------------------------------------
# Records, clones, undo, pickling
# ------------------------------------------------------------------------------------------


def play_some(config: tuple[int, int, str], seed: int, choices: list[int]) -> Game:
    game = new_game(config, seed)
    for choice in choices:
        if game.over:
            break
        game.play(pick(game, choice))
    return game


@PROPERTY
@given(config=configs, seed=seeds, choices=some_choices)
def test_record_round_trip(config: tuple[int, int, str], seed: int, choices: list[int]) -> None:
    game = play_some(config, seed, choices)
    record = game.to_record()
    assert record["format"] == "indigo-record/1"
    assert record["pile"] == game.pile
    assert len(record["moves"]) == len(game.moves)
    for replayed in (
        Game.from_record(record),
        Game.from_record(game.record_json()),
        Game.from_record(game.record_json().encode()),
    ):
        assert replayed == game
        assert hash(replayed) == hash(game)
        assert replayed.snapshot(legal=True) == game.snapshot(legal=True)
        assert replayed.rules == game.rules
        assert [m.canonical() for m in replayed.moves] == [m.canonical() for m in game.moves]


@PROPERTY
@given(config=configs, seed=seeds, choices=some_choices, extra=st.integers(0, 2**16))
def test_clone_is_independent(
    config: tuple[int, int, str], seed: int, choices: list[int], extra: int
) -> None:
    game = play_some(config, seed, choices)
    before = game.snapshot(legal=True)
    twin = game.clone()
    assert twin == game
    assert hash(twin) == hash(game)
    assert twin.snapshot(legal=True) == before
    assert twin.moves == game.moves
    if not twin.over:
        twin.play(pick(twin, extra))
        assert twin != game
        assert game.snapshot(legal=True) == before
        assert len(twin.moves) == len(game.moves) + 1
    if game.moves:
        game.undo()
        assert twin.moves[: len(game.moves)] == game.moves
        assert len(twin.moves) >= len(game.moves) + 1


@PROPERTY
@given(config=configs, seed=seeds, choices=full_choices)
def test_undo_restores_exactly(config: tuple[int, int, str], seed: int, choices: list[int]) -> None:
    game = new_game(config, seed)
    history = [game.snapshot(legal=True)]
    clones = [game.clone()]
    for choice in choices:
        if game.over:
            break
        move = pick(game, choice)
        game.play(move)
        after = game.snapshot(legal=True)
        assert game.undo() == move
        assert game.snapshot(legal=True) == history[-1]
        assert game == clones[-1]
        assert len(game.moves) == len(history) - 1
        game.play(move)
        assert game.snapshot(legal=True) == after
        history.append(after)
        clones.append(game.clone())
    # And all the way back.
    for i in range(len(history) - 1, 0, -1):
        assert game.snapshot(legal=True) == history[i]
        game.undo()
        assert game == clones[i - 1]
    assert game.snapshot(legal=True) == history[0]
    assert game.moves == []


@PROPERTY
@given(config=configs, seed=seeds, choices=some_choices, tie_break=tie_breaks)
def test_pickle_round_trip(
    config: tuple[int, int, str], seed: int, choices: list[int], tie_break: str
) -> None:
    game = new_game(config, seed, tie_break)
    for choice in choices:
        if game.over:
            break
        game.play(pick(game, choice))
    assert_pickle_round_trip(game)


# ------------------------------------------------------------------------------------------
# Illegal moves
# ------------------------------------------------------------------------------------------


@PROPERTY
@given(config=configs, seed=seeds, choices=some_choices, data=st.data())
def test_illegal_moves_raise_and_change_nothing(
    config: tuple[int, int, str], seed: int, choices: list[int], data: st.DataObject
) -> None:
    game = play_some(config, seed, choices)
    if game.over:
        game.undo()
    ref = RefGame(*config, game.pile)
    for m in game.moves:
        ref.play(m)
    before = game.snapshot(legal=True)
    clone = game.clone()
    n_moves = len(game.moves)
    kinds = illegal_moves(game)
    assert kinds["centre"]
    assert kinds["corner"]
    assert kinds["not-in-hand"]
    assert bool(kinds["occupied"]) == (n_moves > 0)
    candidates = list(itertools.chain.from_iterable(kinds.values()))
    sample = data.draw(
        st.lists(st.sampled_from(candidates), min_size=1, max_size=12, unique_by=move_tuple)
    )
    for m in sample:
        assert not ref.is_legal(m)
        assert not game.is_legal(m)
        with pytest.raises(IllegalMoveError):
            game.play(m)
        assert game == clone
        assert game.snapshot(legal=True) == before
        assert len(game.moves) == n_moves
    # Each kind at least once per example, not only the sampled ones.
    for kind, moves in kinds.items():
        if moves:
            m = moves[len(moves) // 2]
            with pytest.raises(IllegalMoveError):
                game.play(m)
            assert game.snapshot(legal=True) == before, kind
    # The game still plays on normally.
    legal = game.legal_moves
    assert legal
    game.play(legal[0])
    assert len(game.moves) == n_moves + 1


# ------------------------------------------------------------------------------------------
# Round trips in every chance mode
# ------------------------------------------------------------------------------------------

modes = st.sampled_from(["seeded", "pile", "explicit"])


def step(game: Game, choice: int) -> None:
    """One step: a chance outcome chosen by ``choice`` at a draw, else a legal move."""
    if game.is_chance_node():
        outcomes = game.chance_outcomes()
        game.apply_action(outcomes[choice % len(outcomes)][0])
    else:
        game.play(pick(game, choice))


def game_in_mode(config: tuple[int, int, str], mode: str, seed: int, choices: list[int]) -> Game:
    """A game in ``mode``, stepped with ``choices`` (possibly stopping at a draw)."""
    rules = make_rules(config)
    if mode == "seeded":
        game = Game(rules, seed=seed)
    elif mode == "pile":
        game = Game(rules, pile=Game(rules, seed=seed).pile[::-1])
    else:
        game = Game(rules, chance="explicit")
    for choice in choices:
        if game.over:
            break
        step(game, choice)
    return game


def copies(game: Game) -> dict[str, Game]:
    record = game.to_record()
    return {
        "pickle": pickle.loads(pickle.dumps(game)),
        "copy": copy.copy(game),
        "deepcopy": copy.deepcopy(game),
        "record": Game.from_record(record),
        "record-json": Game.from_record(json.dumps(record)),
    }


@PROPERTY
@given(
    config=configs,
    mode=modes,
    seed=seeds,
    choices=st.lists(st.integers(0, 2**16), max_size=120),
    more=st.lists(st.integers(0, 2**16), min_size=1, max_size=6),
)
def test_round_trips_are_exact_in_every_mode(
    config: tuple[int, int, str], mode: str, seed: int, choices: list[int], more: list[int]
) -> None:
    """Pickle, copy and records give back the same game, mode and draws waiting included, and
    the copy goes on exactly as the original (no invented pile, no lost chance node)."""
    game = game_in_mode(config, mode, seed, choices)
    for how, twin in copies(game).items():
        assert twin == game, how
        assert twin.to_record() == game.to_record(), how
        assert (twin.explicit_chance, twin.is_chance_node(), twin.chance_seat) == (
            game.explicit_chance,
            game.is_chance_node(),
            game.chance_seat,
        ), how
        assert twin.chance_outcomes() == game.chance_outcomes(), how
        assert (twin.seed, twin.pile, twin.moves) == (game.seed, game.pile, game.moves), how
        original = game.clone()
        for choice in more:
            if original.over:
                break
            step(original, choice)
            step(twin, choice)
            assert twin == original, how
        if twin.moves:
            assert twin.undo() == original.undo(), how
            assert twin == original, how


def _step(game: Game, choice: int) -> None:
    """One random step: a draw's outcome at a chance node (explicit chance), else a move."""
    if game.explicit_chance and game.is_chance_node():
        outcomes = game.chance_outcomes()
        game.apply_action(outcomes[choice % len(outcomes)][0])
    else:
        game.play(pick(game, choice))


@PROPERTY
@given(
    config=configs,
    seed=seeds,
    explicit=st.booleans(),
    before=some_choices,
    observer=st.integers(0, 3),
    resample_seed=st.integers(0, 2**64 - 1),
    after=full_choices,
)
def test_pickled_resample_is_the_same_game(
    config: tuple[int, int, str],
    seed: int,
    explicit: bool,
    before: list[int],
    observer: int,
    resample_seed: int,
    after: list[int],
) -> None:
    """A resampled game (seeded or explicit chance) pickles to the same game: position,
    hidden pile, history (undo) and the same future under the same moves and draws."""
    rules = make_rules(config)
    game = Game(rules, chance="explicit") if explicit else Game(rules, seed=seed)
    for choice in before:
        if game.over:
            return
        _step(game, choice)
    if game.over:
        return
    game = game.resample(observer % rules.players, seed=resample_seed)
    assert_pickle_round_trip(game)
    twin = pickle.loads(pickle.dumps(game))
    assert twin.explicit_chance == game.explicit_chance
    for choice in itertools.cycle(after):
        if game.over:
            break
        _step(game, choice)
        _step(twin, choice)
        assert twin == game
        assert twin.snapshot(legal=True) == game.snapshot(legal=True)
    assert twin.over

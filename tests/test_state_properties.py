"""Forged pickled states of both games (issue 28, item 1).

A pickle holds a game's state: Indigo's is its ``indigo-record/1`` text, Queen's Garden's its
``queens-garden-state/1`` bytes. Real states, taken from seeded games at random points, are
mutated field by field (a number, flag or string set to an edge value, a list item dropped or
repeated) and byte by byte, then given to ``__setstate__``. It may only refuse with the
package's ``IndigoError`` family, never a pyo3 ``PanicException`` (a ``BaseException``, so
``except Exception`` would miss it), and a state it accepts must keep the invariants: every
legal move plays, a bot's choice is a legal move, a copy through pickle equals the game, and the
game plays to its end.
"""

from __future__ import annotations

import copy
import json
import pickle
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import indigo
from conftest import CONFIGS, make_rules
from indigo import queens_garden as qg
from qg_support import MOVE_BOUND, check_invariants

pytestmark = pytest.mark.slow  # left out of scripts/check --quick

FORGERIES = settings(
    max_examples=300,
    deadline=None,
    database=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

# The edges of every count, index and limit of both formats, and values of the wrong type.
EDGES: list[Any] = [
    *[0, 1, 2, 3, 4, 5, 6, 7, 8, 11, 12, 15, 27, 35, 36, 54, 107, 108, 255, 256],
    *[-1, 2**32, 2**63, 2**64, 1.5, True, False, None, "", "pass", "take bl", [], {}],
    *[[True] * 4, [0] * 4],
]

Game = indigo.Game | qg.Game


def _qg_game(players: int, seed: int, plies: int) -> qg.Game:
    game = qg.Game(qg.Rules(players), seed=seed)
    bot = qg.make_bot("random", seed=seed)
    for _ in range(plies):
        if game.over:
            break
        game.play(bot.choose(game))
    return game


def _indigo_game(config: int, seed: int, plies: int) -> indigo.Game:
    game = indigo.Game(make_rules(CONFIGS[config]), seed=seed)
    bot = indigo.make_bot("random", seed=seed)
    for _ in range(plies):
        if game.over:
            break
        game.play(bot.choose(game))
    return game


def _edit(document: Any, path: tuple[Any, ...], how: int, value: Any) -> Any:
    """``document`` with the value at ``path`` replaced by ``value``, moved by one (an
    integer) or (a list item) dropped or repeated; the whole document replaced at the empty
    path."""
    value = copy.deepcopy(value)
    if not path:
        return value
    parent = document
    for key in path[:-1]:
        parent = parent[key]
    key = path[-1]
    if isinstance(parent, list) and how == 1:
        del parent[key]
    elif isinstance(parent, list) and how == 2:
        parent.insert(key, copy.deepcopy(parent[key]))
    elif how == 3 and type(parent[key]) is int:
        parent[key] += 1 if value else -1
    else:
        parent[key] = value
    return document


@st.composite
def _path(draw: st.DrawFn, document: Any) -> tuple[Any, ...]:
    """A path into ``document`` chosen a level at a time (each field of an object alike, so a
    flag weighs as much as the 108 entries of a bag), stopping at a container now and then."""
    path: tuple[Any, ...] = ()
    value = document
    while isinstance(value, dict | list) and value and (not path or draw(st.integers(0, 4))):
        key = draw(st.sampled_from(list(value) if isinstance(value, dict) else range(len(value))))
        path += (key,)
        value = value[key]
    return path


@st.composite
def field_forgery(draw: st.DrawFn, text: str) -> str:
    document = json.loads(text)
    for _ in range(draw(st.integers(1, 3))):
        path = draw(_path(document))
        how = draw(st.integers(0, 3))
        value = draw(st.sampled_from(EDGES))
        document = _edit(document, path, how, value)
    return json.dumps(document)


@st.composite
def byte_forgery(draw: st.DrawFn, data: bytes) -> bytes:
    out = bytearray(data)
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(out) - 1))
        out[at] = draw(st.sampled_from(b'0123456789,[]{}":-.tfn ' + bytes([0x80, 0xFF])))
    return bytes(out)


def _accepted(restore: Callable[[], None]) -> bool:
    """Whether ``restore`` accepted the state; only the package's errors may refuse it."""
    try:
        restore()
    except indigo.IndigoError:
        return False
    except BaseException as exc:  # a pyo3 PanicException is a BaseException
        pytest.fail(f"the state reader raised {type(exc).__name__}: {exc}")
    return True


def _check_public_counts(snap: dict[str, Any]) -> None:
    """The rules' invariants (tiles and expansions conserved, storage limits, the group rule)
    and, kind by kind, what the public sees: at most 3 tiles of a kind outside the bag, and
    each expansion face up in one place only."""
    check_invariants(snap)
    stack = snap["stack"]
    tiles = Counter(snap["tower"] + (stack["tiles"] if stack else []))
    face_up: list[str] = []
    for item in snap["display"]:
        tiles.update(item.get("tiles", []))
        face_up += [item["kind"]] if item["face"] == "up" else []
    for store in snap["storage"]:
        tiles.update(store["tiles"])
        face_up += store["expansions"]
    for garden in snap["gardens"]:
        tiles.update(garden["tiles"].values())
        face_up += [a["kind"] for a in garden["areas"] if a and a["face"] == "up"]
    assert max(tiles.values(), default=0) <= 3, f"more than 3 tiles of a kind: {tiles}"
    assert len(face_up) == len(set(face_up)), f"an expansion in two places: {face_up}"


def _check_state_conserves(state: bytes) -> None:
    """In a Queen's Garden state's first position, each kind's 3 tiles over the bag, the
    tower, the display, the storages and the gardens, and each expansion held (in a storage or
    face up in a garden) once at most and one of the expansions already revealed."""
    p = json.loads(state)["position"]
    tiles = Counter(p["bag"][p["bag_start"] : p["bag_end"]])
    tiles.update(dict(enumerate(p["tower"])))
    for held, length in zip(p["slot_tiles"], p["slot_len"], strict=True):
        tiles.update(held[:length])
    players = p["rules"]["players"]
    held = []
    for store, garden in zip(p["storages"][:players], p["gardens"][:players], strict=True):
        tiles.update(store["tiles"])
        tiles.update(kind for _, kind in garden["tiles"])
        held += store["expansions"]
        held += [a[0] for a in garden["areas"] if isinstance(a, list)]
    assert tiles == Counter(dict.fromkeys(range(36), 3)), f"tiles by kind: {tiles}"
    revealed = {p["expansions"][i] for i in range(36) if p["revealed"] >> i & 1}
    assert len(held) == len(set(held)), f"an expansion held twice: {held}"
    assert set(held) <= revealed, f"an expansion held but never revealed: {held}"


def _check_playable(game: Game, bots: list[Any]) -> None:
    """Every legal move plays; pickle copies it; it plays to its end within the longest game's
    length, the bots taking turns, each bot's choice legal at every step, every Queen's Garden
    position keeping the rules' invariants."""
    try:
        for move in game.legal_moves:
            game.clone().play(move)
        assert pickle.loads(pickle.dumps(game)) == game
        for ply in range(400):
            if game.over:
                break
            if isinstance(game, qg.Game):
                _check_public_counts(game.snapshot())
                assert game.moves_played < MOVE_BOUND[game.rules.players]
            legal = game.legal_moves
            choices = [bot.choose(game) for bot in bots]
            assert all(c in legal for c in choices), f"a bot chose an illegal move: {choices}"
            game.play(choices[ply % len(choices)])
        assert game.over, "the game did not end"
    except AssertionError:
        raise
    except BaseException as exc:  # a pyo3 PanicException is a BaseException
        pytest.fail(f"an accepted state failed in play: {type(exc).__name__}: {exc}")


def _qg_restore(state: bytes) -> tuple[qg.Game, bool]:
    game = qg.Game(qg.Rules(2), seed=0)
    return game, _accepted(lambda: game.__setstate__(state))


def _indigo_restore(state: str) -> tuple[indigo.Game, bool]:
    game = indigo.Game(indigo.Rules(2), seed=0)
    return game, _accepted(lambda: game.__setstate__(state))


def _qg_bots(seed: int) -> list[Any]:
    return [qg.make_bot("random", seed=seed), qg.make_bot("greedy", seed=seed)]


def _indigo_bots(seed: int) -> list[Any]:
    return [indigo.make_bot("random", seed=seed), indigo.make_bot("greedy", seed=seed)]


PLAYERS = st.sampled_from([2, 3, 4])
SEEDS = st.integers(0, 2**32 - 1)
PLIES = st.integers(0, 160)


def _qg_state(players: int, seed: int, plies: int, resampled: bool) -> bytes:
    game = _qg_game(players, seed, plies)
    if resampled and not game.over:
        assert game.to_move is not None
        game = game.resample(game.to_move, seed=seed)
    return game.__getstate__()


@FORGERIES
@given(players=PLAYERS, seed=SEEDS, plies=PLIES, resampled=st.booleans(), data=st.data())
def test_forged_queens_garden_fields(
    players: int, seed: int, plies: int, resampled: bool, data: st.DataObject
) -> None:
    state = _qg_state(players, seed, plies, resampled)
    forged = data.draw(field_forgery(state.decode()))
    game, accepted = _qg_restore(forged.encode())
    if accepted:
        _check_state_conserves(game.__getstate__())
        _check_playable(game, _qg_bots(seed))


@FORGERIES
@given(players=PLAYERS, seed=SEEDS, plies=PLIES, resampled=st.booleans(), data=st.data())
def test_forged_queens_garden_bytes(
    players: int, seed: int, plies: int, resampled: bool, data: st.DataObject
) -> None:
    forged = data.draw(byte_forgery(_qg_state(players, seed, plies, resampled)))
    game, accepted = _qg_restore(forged)
    if accepted:
        _check_state_conserves(game.__getstate__())
        _check_playable(game, _qg_bots(seed))


CONFIG_INDEX = st.integers(0, len(CONFIGS) - 1)


@FORGERIES
@given(config=CONFIG_INDEX, seed=SEEDS, plies=st.integers(0, 60), data=st.data())
def test_forged_indigo_fields(config: int, seed: int, plies: int, data: st.DataObject) -> None:
    state = _indigo_game(config, seed, plies).__getstate__()
    game, accepted = _indigo_restore(data.draw(field_forgery(state)))
    if accepted:
        _check_playable(game, _indigo_bots(seed))


@FORGERIES
@given(config=CONFIG_INDEX, seed=SEEDS, plies=st.integers(0, 60), data=st.data())
def test_forged_indigo_bytes(config: int, seed: int, plies: int, data: st.DataObject) -> None:
    state = _indigo_game(config, seed, plies).__getstate__().encode()
    forged = data.draw(byte_forgery(state)).decode(errors="replace")
    game, accepted = _indigo_restore(forged)
    if accepted:
        _check_playable(game, _indigo_bots(seed))


@pytest.mark.parametrize("moves", [["take bl", "take ye"], []])
def test_every_seat_passed_is_refused_naming_the_field(moves: list[str]) -> None:
    """The issue's minimal case: with every seat passed ``to_move`` became 255 and indexing
    panicked (in ``__setstate__`` with moves, in a later ``play`` without)."""
    state = json.loads(qg.Game(qg.Rules(2), seed=1).__getstate__())
    state["position"]["passed"] = [True] * 4
    state["moves"] = moves
    game = qg.Game(qg.Rules(2), seed=1)
    before = game.__getstate__()
    with pytest.raises(indigo.RecordError) as caught:
        game.__setstate__(json.dumps(state).encode())
    assert caught.value.at == "state.passed"
    assert game.__getstate__() == before


def _successor(game: qg.Game, rng: random.Random) -> qg.Game:
    """The game after a random legal action, chance's outcomes chosen at random."""
    action = rng.choice(game.legal_actions())
    outcomes: list[int] = []
    while step := game.chance_outcomes(action, outcomes):
        outcomes.append(rng.choice(step)[0])
    return game.successor(action, outcomes)


def test_real_states_of_every_kind_are_accepted() -> None:
    """Set-up, mid-game, resampled, chance-successor, chosen-first-draw and finished states of
    each player count read back equal: the checks refuse nothing that play makes."""
    rng = random.Random(28)
    for players in (2, 3, 4):
        draws = [k for k, _ in qg.Game.first_draw_outcomes()[:4]]
        games = [qg.Game.with_first_draws(qg.Rules(players), draws, seed=players)]
        for plies in (0, 9, 50, 1000):
            seed = rng.randrange(2**32)
            game = _qg_game(players, seed, plies)
            games.append(game)
            if not game.over:
                assert game.to_move is not None
                games += [game.resample(game.to_move, seed=seed), _successor(game, rng)]
        for game in games:
            state = game.__getstate__()
            back, accepted = _qg_restore(state)
            assert accepted
            assert back == game
            assert back.__getstate__() == state

"""Bad input everywhere: a table of hostile calls on the public API and the CLI.

Each case must raise the stated ``TypeError`` / ``ValueError`` subclass (never a pyo3
``PanicException``, which derives from ``BaseException``), finish quickly (a watchdog kills the
run on a hang, even inside native code), and leave the game it was given unchanged. CLI cases
must exit with status 2, print one line on stderr and write nothing.
"""

from __future__ import annotations

import faulthandler
import json
import os
import socket
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from conftest import BOX, load_vector
from indigo import (
    Game,
    GreedyBot,
    IllegalMoveError,
    IndigoError,
    IsmctsBot,
    Move,
    MoveError,
    PlayoutBot,
    PuctBot,
    RandomBot,
    RecordError,
    Rules,
    RulesError,
    VectorGames,
    make_bot,
    self_play,
    simulate,
)
from indigo.cli import main
from indigo.distributed import MAX_GAMES, LocalBackend, RunError
from indigo.games import GAMES as ENTRIES
from indigo.tournament import MAX_SEATINGS, run_tournament

SECONDS = 5.0  # each case; a case that hangs is killed by the watchdog after HANG_SECONDS
HANG_SECONDS = 60
BIG = 2**64
HUGE = 10**5000  # more digits than int() may turn into text by default (4300)


def mid_game() -> Game:
    game = Game(Rules.indigo(2), seed=1)
    for _ in range(5):
        game.play(game.legal_moves[0])
    return game


def over_game() -> Game:
    return Game.from_record(load_vector("game-01.json")["record"])


GAMES = {"start": lambda: Game(Rules.tactical(3), seed=2), "mid": mid_game, "over": over_game}


def record(**changes: Any) -> dict[str, Any]:
    """The mid game's record with top-level fields replaced (``None`` drops the field)."""
    out = mid_game().to_record()
    for key, value in changes.items():
        if value is None:
            out.pop(key)
        else:
            out[key] = value
    return out


def with_rules(**changes: Any) -> dict[str, Any]:
    return record(rules={**mid_game().to_record()["rules"], **changes})


def with_move(index: int, **changes: Any) -> dict[str, Any]:
    out = record()
    out["moves"][index] = {**out["moves"][index], **changes}
    return out


def with_pile(index: int, value: Any) -> dict[str, Any]:
    out = record()
    out["pile"][index] = value
    return out


def nested(depth: int) -> Any:
    value: Any = []
    for _ in range(depth):
        value = [value]
    return value


def text(value: dict[str, Any]) -> str:
    return json.dumps(value)


def occupied(game: Game) -> Move:
    q, r = next(iter(game.board))
    return Move(game.hand(game.to_move or 0)[0], 0, q, r)


def not_in_hand(game: Game) -> Move:
    tile = next(t for t in range(5) if t not in game.hand(game.to_move or 0))
    return Move(tile, 0, -1, 1) if game.tile_at(-1, 1) is None else Move(tile, 0, 1, -1)


@dataclass(frozen=True)
class Case:
    name: str
    call: Callable[[Game], object]
    error: type[Exception]
    game: str = "mid"


API = [
    # Rules
    Case("rules-players-5", lambda g: Rules(players=5), RulesError),
    Case("rules-players-1", lambda g: Rules(players=1), RulesError),
    Case("rules-players-0", lambda g: Rules(players=0), RulesError),
    Case("rules-players-negative", lambda g: Rules(players=-1), RulesError),
    Case("rules-players-2**64", lambda g: Rules(players=BIG), RulesError),
    Case("rules-players--2**100", lambda g: Rules(players=-(2**100)), RulesError),
    Case("rules-players-huge", lambda g: Rules(players=HUGE), RulesError),
    Case("rules-players-str", lambda g: Rules(players="2"), TypeError),
    Case("rules-players-float", lambda g: Rules(players=2.0), TypeError),
    Case("rules-players-none", lambda g: Rules(players=None), TypeError),
    Case("rules-hand-3", lambda g: Rules(hand_size=3), RulesError),
    Case("rules-hand-0", lambda g: Rules(hand_size=0), RulesError),
    Case("rules-hand-negative", lambda g: Rules(hand_size=-(2**70)), RulesError),
    Case("rules-hand-str", lambda g: Rules(hand_size="1"), TypeError),
    Case("rules-gates-unknown", lambda g: Rules(three_player_gates="both"), RulesError),
    Case("rules-gates-int", lambda g: Rules(three_player_gates=1), TypeError),
    Case("rules-tie-unknown", lambda g: Rules(tie_break="points"), RulesError),
    Case("rules-tie-empty", lambda g: Rules(tie_break=""), RulesError),
    Case("rules-theme-unknown", lambda g: Rules(theme="chess"), RulesError),
    Case("rules-theme-bytes", lambda g: Rules(theme=b"indigo"), TypeError),
    Case("rules-open-str", lambda g: Rules(open_hands="yes"), TypeError),
    Case("rules-open-int", lambda g: Rules(open_hands=1), TypeError),
    Case("rules-unknown-keyword", lambda g: Rules(colour="red"), TypeError),
    Case("rules-indigo-5", lambda g: Rules.indigo(5), RulesError),
    Case("rules-tactical-1", lambda g: Rules.tactical(1), RulesError),
    Case("rules-garden-negative", lambda g: Rules.butterfly_garden(-3), RulesError),
    Case("rules-indigo-str", lambda g: Rules.indigo("2"), TypeError),
    Case("gate-owners-6", lambda g: g.rules.gate_owners(6), IndigoError),
    Case("gate-owners-negative", lambda g: g.rules.gate_owners(-1), IndigoError),
    Case("gate-owners-huge", lambda g: g.rules.gate_owners(HUGE), IndigoError),
    Case("gate-owners-str", lambda g: g.rules.gate_owners("0"), TypeError),
    Case("gem-name-unknown", lambda g: g.rules.gem_name("ruby"), IndigoError),
    Case("gem-name-none", lambda g: g.rules.gem_name(None), TypeError),
    Case("gem-colour-empty", lambda g: g.rules.gem_colour(""), IndigoError),
    Case("seat-colour-2-of-2", lambda g: g.rules.seat_colour(2), IndigoError),
    Case("seat-colour-negative", lambda g: g.rules.seat_colour(-1), IndigoError),
    # Move
    Case("move-tile-5", lambda g: Move(5, 0, 0, -3), MoveError),
    Case("move-tile-negative", lambda g: Move(-1, 0, 0, -3), MoveError),
    Case("move-rotation-6", lambda g: Move(0, 6, 0, -3), MoveError),
    Case("move-rotation-negative", lambda g: Move(0, -1, 0, -3), MoveError),
    Case("move-off-board", lambda g: Move(0, 0, 4, 4), MoveError),
    Case("move-q-5", lambda g: Move(0, 0, 5, 0), MoveError),
    Case("move-q-2**63", lambda g: Move(0, 0, 2**63, 0), MoveError),
    Case("move-r--2**100", lambda g: Move(0, 0, 0, -(2**100)), MoveError),
    Case("move-tile-huge", lambda g: Move(HUGE, 0, 0, -3), MoveError),
    Case("move-str-part", lambda g: Move("0", 0, 0, -3), TypeError),
    Case("move-float-part", lambda g: Move(0, 0, 0.5, -3), TypeError),
    Case("move-missing-part", lambda g: Move(0, 0, 0), TypeError),
    Case("parse-empty", lambda g: Move.parse(""), MoveError),
    Case("parse-tile-only", lambda g: Move.parse("4"), MoveError),
    Case("parse-no-cell", lambda g: Move.parse("4@0"), MoveError),
    Case("parse-half-cell", lambda g: Move.parse("4@0:0"), MoveError),
    Case("parse-three-coords", lambda g: Move.parse("4@0:0,-3,1"), MoveError),
    Case("parse-letters", lambda g: Move.parse("x@y:z,w"), MoveError),
    Case("parse-off-board", lambda g: Move.parse("4@0:0,-9"), MoveError),
    Case("parse-rotation-9", lambda g: Move.parse("4@9:0,-3"), MoveError),
    Case("parse-tile-9", lambda g: Move.parse("9@0:0,-3"), MoveError),
    Case("parse-open-paren", lambda g: Move.parse("4@0:(0,-3"), MoveError),
    Case("parse-fullwidth-digit", lambda g: Move.parse("\uff14@0:0,-3"), MoveError),
    Case("parse-nul", lambda g: Move.parse("4@0:0,-3\x00"), MoveError),
    Case("parse-i64-overflow", lambda g: Move.parse("4@0:99999999999999999999,0"), MoveError),
    Case("parse-megabyte-digits", lambda g: Move.parse("1" * 10**6), MoveError),
    Case("parse-many-ats", lambda g: Move.parse("@" * 10**6), MoveError),
    Case("parse-lone-surrogate", lambda g: Move.parse("4@0:0,-3\ud800"), IndigoError),
    Case("parse-bytes", lambda g: Move.parse(b"4@0:0,-3"), TypeError),
    Case("parse-none", lambda g: Move.parse(None), TypeError),
    # Game()
    Case("game-rules-str", lambda g: Game("indigo"), TypeError),
    Case("game-positional-seed", lambda g: Game(Rules(), 5), TypeError),
    Case("game-seed-negative", lambda g: Game(seed=-1), IndigoError),
    Case("game-seed-2**64", lambda g: Game(seed=BIG), IndigoError),
    Case("game-seed-huge", lambda g: Game(seed=HUGE), IndigoError),
    Case("game-seed-float", lambda g: Game(seed=1.5), TypeError),
    Case("game-seed-str", lambda g: Game(seed="1"), TypeError),
    Case("game-seed-and-pile", lambda g: Game(seed=1, pile=BOX), IndigoError),
    Case("game-pile-not-box", lambda g: Game(pile=[0] * 54), IndigoError),
    Case("game-pile-53", lambda g: Game(pile=BOX[:53]), IndigoError),
    Case("game-pile-55", lambda g: Game(pile=[*BOX, 0]), IndigoError),
    Case("game-pile-empty", lambda g: Game(pile=[]), IndigoError),
    Case("game-pile-type-5", lambda g: Game(pile=[*BOX[:53], 5]), IndigoError),
    Case("game-pile-negative", lambda g: Game(pile=[-1, *BOX[1:]]), IndigoError),
    Case("game-pile-huge-int", lambda g: Game(pile=[HUGE, *BOX[1:]]), IndigoError),
    Case("game-pile-million", lambda g: Game(pile=[0] * 10**6), IndigoError),
    Case("game-pile-str", lambda g: Game(pile="0" * 54), TypeError),
    Case("game-pile-floats", lambda g: Game(pile=[0.0] * 54), TypeError),
    Case("game-pile-nones", lambda g: Game(pile=[None] * 54), TypeError),
    # Game methods
    Case("hand-seat-2-of-2", lambda g: g.hand(2), IndigoError),
    Case("hand-seat-negative", lambda g: g.hand(-1), IndigoError),
    Case("hand-seat-2**64", lambda g: g.hand(BIG), IndigoError),
    Case("hand-seat-str", lambda g: g.hand("0"), TypeError),
    Case("visible-hands-5", lambda g: g.visible_hands(5), IndigoError),
    Case("visible-hands-none", lambda g: g.visible_hands(None), TypeError),
    Case("tile-at-off-board", lambda g: g.tile_at(5, 5), IndigoError),
    Case("tile-at-2**40", lambda g: g.tile_at(2**40, 0), IndigoError),
    Case("tile-at-str", lambda g: g.tile_at("0", 0), TypeError),
    Case("tile-at-missing", lambda g: g.tile_at(0), TypeError),
    Case("snapshot-seat-2", lambda g: g.snapshot(seat=2), IndigoError),
    Case("snapshot-seat-negative", lambda g: g.snapshot(seat=-1), IndigoError),
    Case("snapshot-seat-str", lambda g: g.snapshot(seat="0"), TypeError),
    Case("snapshot-legal-str", lambda g: g.snapshot(legal="yes"), TypeError),
    Case("snapshot-json-seat-huge", lambda g: g.snapshot_json(seat=HUGE), IndigoError),
    Case("play-garbage", lambda g: g.play("garbage"), MoveError),
    Case("play-none", lambda g: g.play(None), TypeError),
    Case("play-float", lambda g: g.play(42.0), TypeError),
    Case("play-action-out-of-range", lambda g: g.play(810), MoveError),
    Case("play-action-negative", lambda g: g.play(-1), MoveError),
    Case("play-action-huge", lambda g: g.play(10**30), MoveError),
    Case(
        "apply-action-illegal",
        lambda g: g.apply_action(min(set(range(810)) - set(g.legal_actions()))),
        IllegalMoveError,
    ),
    Case("apply-action-out-of-range", lambda g: g.apply_action(810), MoveError),
    Case("apply-action-bad-tile", lambda g: explicit_game().apply_action(9), MoveError),
    Case("observation-bad-seat", lambda g: g.observation(7), IndigoError),
    Case("resample-bad-seat", lambda g: g.resample(-1), IndigoError),
    Case("returns-bad-utility", lambda g: g.returns("elo"), IndigoError),
    Case("play-tuple", lambda g: g.play((0, 0, 0, -3)), TypeError),
    Case("play-centre", lambda g: g.play(Move(0, 0, 0, 0)), IllegalMoveError),
    Case("play-corner", lambda g: g.play(Move(0, 0, 0, -4)), IllegalMoveError),
    Case("play-occupied", lambda g: g.play(occupied(g)), IllegalMoveError),
    Case("play-not-in-hand", lambda g: g.play(not_in_hand(g)), IllegalMoveError),
    Case("play-gate-exits", lambda g: g.play(Move(4, 0, -1, -3)), IllegalMoveError, "start"),
    Case("play-after-end", lambda g: g.play("0@0:0,-3"), IllegalMoveError, "over"),
    Case("is-legal-garbage", lambda g: g.is_legal("4@"), MoveError),
    Case("is-legal-none", lambda g: g.is_legal(None), TypeError),
    Case("undo-at-start", lambda g: g.undo(), IndigoError, "start"),
    Case("setstate-garbage", lambda g: g.__setstate__("garbage"), RecordError),
    Case("setstate-bad-move", lambda g: g.__setstate__(text(with_move(2, q=9))), RecordError),
    Case("setstate-int", lambda g: g.__setstate__(5), TypeError),
    # Bots
    Case("random-bot-seed-negative", lambda g: RandomBot(seed=-1), IndigoError),
    Case("greedy-bot-seed-2**64", lambda g: GreedyBot(seed=BIG), IndigoError),
    Case("random-bot-seed-str", lambda g: RandomBot(seed="x"), TypeError),
    Case("bot-choose-str", lambda g: GreedyBot(seed=1).choose("game"), TypeError),
    Case("bot-choose-none", lambda g: RandomBot(seed=1).choose(None), TypeError),
    Case("random-bot-after-end", lambda g: RandomBot(seed=1).choose(g), IllegalMoveError, "over"),
    Case("greedy-bot-after-end", lambda g: GreedyBot(seed=1).choose(g), IllegalMoveError, "over"),
]

FROM_RECORD = [
    # (name, record given to Game.from_record, RecordError.at or None when unchecked)
    ("not-json", "{", "format"),
    ("empty-text", "", "format"),
    ("json-array", "[]", "format"),
    ("json-number", 5, "format"),
    ("json-null", None, "format"),
    ("format-missing", record(format=None), "format"),
    ("format-other", record(format="indigo-record/2"), "format"),
    ("format-int", record(format=1), "format"),
    ("rules-missing", record(rules=None), "rules.players"),
    ("rules-list", record(rules=[2, 1]), "rules.players"),
    ("players-str", with_rules(players="2"), "rules.players"),
    ("players-float", with_rules(players=2.0), "rules.players"),
    ("players-bool", with_rules(players=True), "rules.players"),
    ("players-5", with_rules(players=5), "rules.players"),
    ("players-2**64", with_rules(players=BIG), "rules.players"),
    ("players-nan", with_rules(players=float("nan")), "format"),
    ("hand-size-0", with_rules(hand_size=0), "rules.hand_size"),
    ("hand-size-null", with_rules(hand_size=None), "rules.hand_size"),
    ("gates-unknown", with_rules(three_player_gates="both"), "rules.three_player_gates"),
    ("gates-int", with_rules(three_player_gates=1), "rules.three_player_gates"),
    ("tie-break-list", with_rules(tie_break=["shared"]), "rules.tie_break"),
    ("open-hands-str", with_rules(open_hands="true"), "rules.open_hands"),
    ("pile-missing", record(pile=None), "pile"),
    ("pile-53", record(pile=BOX[:53]), "pile"),
    ("pile-55", record(pile=[*BOX, 0]), "pile"),
    ("pile-not-box", record(pile=[0] * 54), "pile"),
    ("pile-object", record(pile={"0": 0}), "pile"),
    ("pile-item-str", with_pile(3, "0"), "pile"),
    ("pile-item-float", with_pile(3, 1.0), "pile"),
    ("pile-item-negative", with_pile(3, -1), "pile"),
    ("pile-item-null", with_pile(3, None), "pile"),
    ("pile-item-infinity", with_pile(3, float("inf")), "format"),
    ("pile-million", record(pile=[0] * 10**6), "pile"),
    ("theme-unknown", record(theme="dark"), "theme"),
    ("theme-int", record(theme=1), "theme"),
    ("theme-list", record(theme=["indigo"]), "theme"),
    ("seed-negative", record(seed=-1), "seed"),
    ("seed-str", record(seed="1"), "seed"),
    ("seed-float", record(seed=1.5), "seed"),
    ("seed-whole-float", record(seed=1.0), "seed"),
    ("seed-bool", record(seed=True), "seed"),
    ("seed-2**64", record(seed=BIG), "seed"),
    ("chance-unknown", record(chance="random"), "chance"),
    ("chance-bool", record(chance=True), "chance"),
    ("chance-explicit-with-seed", record(chance="explicit", drawn=7), "seed"),
    ("drawn-without-explicit", record(drawn=7), "drawn"),
    ("explicit-drawn-missing", record(chance="explicit", seed=None), "drawn"),
    ("explicit-drawn-too-many", record(chance="explicit", seed=None, drawn=54), "drawn"),
    ("explicit-drawn-too-few", record(chance="explicit", seed=None, drawn=1), 0),
    ("explicit-drawn-negative", record(chance="explicit", seed=None, drawn=-1), "drawn"),
    ("explicit-drawn-str", record(chance="explicit", seed=None, drawn="7"), "drawn"),
    ("result-not-object", record(result=5), "result"),
    ("result-before-the-end", record(result={"scores": [0, 0], "winners": []}), "result"),
    ("moves-missing", record(moves=None), "moves"),
    ("moves-object", record(moves={}), "moves"),
    ("move-not-object", record(moves=[5]), 0),
    ("move-tile-missing", record(moves=[{"rotation": 0, "q": 0, "r": -3}]), 0),
    ("move-tile-str", with_move(1, tile="0"), 1),
    ("move-rotation-6", with_move(2, rotation=6), 2),
    ("move-q-99", with_move(3, q=99), 3),
    ("move-r-2**64", with_move(3, r=BIG), 3),
    ("move-repeated", record(moves=record()["moves"] * 2), 5),
    ("moves-100000", record(moves=record()["moves"] * 20000), 5),
    ("move-after-end", None, "after-end"),  # filled in below
    ("deep-list-text", "[" * 100_000 + "]" * 100_000, "format"),
    ("deep-list-dict", record(extra=nested(100_000)), "format"),
    ("deep-object-text", '{"a":' * 100_000 + "1" + "}" * 100_000, "format"),
    ("duplicate-key-last-bad", text(record())[:-1] + ', "format": "x"}', "format"),
    ("non-utf8-bytes", b'{"format": "\xff\xfe"}', "format"),
    ("utf16-bytes", text(record()).encode("utf-16"), "format"),
    ("utf8-bom", b"\xef\xbb\xbf" + text(record()).encode(), "format"),
    ("escaped-lone-surrogate", '{"format": "\\ud800"}', "format"),
    ("ten-megabyte-string", text(record(format="x" * 10**7)), "format"),
    ("not-json-data", record(format=object()), "format"),
    ("bytearray", bytearray(text(record()).encode()), "format"),
]
_full = load_vector("game-01.json")["record"]
FROM_RECORD[[n for n, _, _ in FROM_RECORD].index("move-after-end")] = (
    "move-after-end",
    {**_full, "moves": [*_full["moves"], _full["moves"][0]]},
    len(_full["moves"]),
)
_result = over_game().to_record()["result"]
FROM_RECORD += [
    ("result-wrong-scores", {**_full, "result": {**_result, "scores": [99, 0]}}, "result"),
    ("result-wrong-winners", {**_full, "result": {**_result, "winners": []}}, "result"),
    ("result-scores-str", {**_full, "result": {**_result, "scores": "0,0"}}, "result"),
]

API += [
    Case(f"record-{name}", lambda g, r=value: Game.from_record(r), RecordError)
    for name, value, _ in FROM_RECORD
] + [
    Case("record-lone-surrogate-str", lambda g: Game.from_record('{"f": "\ud800"}'), ValueError),
    Case("record-dict-unknown-type", lambda g: Game.from_record({1j: 1}), RecordError),
]


def vector_step(actions: Any) -> object:
    """Steps two fresh games with ``actions``."""
    return VectorGames(2, seed=1).step(actions)


API += [
    Case("vector-envs-0", lambda g: VectorGames(0), IndigoError),
    Case("vector-envs-negative", lambda g: VectorGames(-1), IndigoError),
    Case("vector-envs-huge", lambda g: VectorGames(HUGE), IndigoError),
    Case("vector-envs-65537", lambda g: VectorGames(2**16 + 1), IndigoError),
    Case("vector-envs-str", lambda g: VectorGames("2"), TypeError),
    Case("vector-rules-str", lambda g: VectorGames(1, "indigo"), TypeError),
    Case("vector-utility-unknown", lambda g: VectorGames(1, utility="score"), IndigoError),
    Case("vector-seed-negative", lambda g: VectorGames(1, seed=-1), IndigoError),
    Case("vector-reset-seed-str", lambda g: VectorGames(1).reset(seed="1"), TypeError),
    Case("vector-step-short", lambda g: vector_step([0]), IndigoError),
    Case("vector-step-long", lambda g: vector_step([0] * 3), IndigoError),
    Case("vector-step-illegal", lambda g: vector_step([0, 0]), IllegalMoveError),
    Case("vector-step-negative", lambda g: vector_step([-1, -1]), IllegalMoveError),
    Case("vector-step-2**64-1", lambda g: vector_step([BIG - 1] * 2), IllegalMoveError),
    Case("vector-step-huge", lambda g: vector_step([HUGE, 0]), TypeError),
    Case("vector-step-float", lambda g: vector_step([0.0, 1.0]), TypeError),
    Case("vector-step-bool", lambda g: vector_step([True, False]), TypeError),
    Case("vector-step-str", lambda g: vector_step(["0", "1"]), TypeError),
    Case("vector-step-none", lambda g: vector_step(None), TypeError),
    Case("vector-step-2d", lambda g: vector_step([[0, 1]]), TypeError),
    Case("vector-step-scalar", lambda g: vector_step(0), TypeError),
    Case("vector-step-empty", lambda g: vector_step([]), TypeError),
]


def tree(root: Path) -> dict[str, tuple[bytes, int] | None]:
    """Every path under ``root``: a file's bytes and modification time, ``None`` for a folder."""
    return {
        str(path.relative_to(root)): None
        if path.is_dir()
        else (path.read_bytes(), path.stat().st_mtime_ns)
        for path in sorted(root.rglob("*"))
    }


def _refused_in(root: Path, call: Callable[[], object]) -> object:
    """``call()``, which must change nothing under ``root``."""
    before = tree(root)
    try:
        return call()
    finally:
        assert tree(root) == before, "something was written"


def _selfplay_in(folder: Path, **changes: Any) -> object:
    """A self-play run of two greedy games into ``folder`` (in a fresh temporary folder), with
    ``changes``; it must write nothing."""
    from indigo.selfplay import run_selfplay

    settings: dict[str, Any] = {"games": 2, "shard_size": 1, **changes}
    bots = settings.pop("bots", ["greedy"])
    root = next(p for p in folder.parents if p.name.startswith("indigo-bad-"))
    return _refused_in(root, lambda: run_selfplay(bots, folder=folder, **settings))


def _fresh(*files: tuple[str, bytes]) -> Path:
    """A new temporary folder holding ``files``; the output folder ``run`` inside it."""
    import tempfile

    root = Path(tempfile.mkdtemp(prefix="indigo-bad-"))
    for name, content in files:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(content)
    return root / "run"


def _selfplay_folder(**changes: Any) -> object:
    """A self-play run of two games into a fresh folder, then one with ``changes``."""
    from indigo.selfplay import run_selfplay

    folder = _fresh()
    run_selfplay(["greedy"], 2, folder, shard_size=1)
    return _selfplay_in(folder, **changes)


def _load(folder: Any, batch_size: Any = 8) -> object:
    from indigo.selfplay import load

    return next(load(folder, batch_size=batch_size))


API += [
    Case("self-play-bot-unknown", lambda g: self_play(["chess"], 1), IndigoError),
    Case("self-play-no-bots", lambda g: self_play([], 1), IndigoError),
    Case("self-play-games-negative", lambda g: self_play(["greedy"], -1), IndigoError),
    Case("self-play-games-huge", lambda g: self_play(["greedy"], HUGE), IndigoError),
    Case("self-play-games-str", lambda g: self_play(["greedy"], "1"), TypeError),
    Case("self-play-lineup-short", lambda g: self_play(["greedy"], 1, lineups=[[0]]), IndigoError),
    Case(
        "self-play-lineup-index", lambda g: self_play(["greedy"], 1, lineups=[[0, 1]]), IndigoError
    ),
    Case("self-play-seed-negative", lambda g: self_play(["greedy"], 1, seed=-1), IndigoError),
    Case("self-play-threads-huge", lambda g: self_play(["greedy"], 1, threads=BIG), IndigoError),
    Case(
        "self-play-interval-nan",
        lambda g: self_play(["greedy"], 1, interval=float("nan")),
        IndigoError,
    ),
    Case(
        "self-play-progress-raises",
        lambda g: self_play(["greedy"], 1, progress=lambda d, t: 1 / 0),
        ZeroDivisionError,
    ),
    Case("selfplay-other-seed", lambda g: _selfplay_folder(seed=5), IndigoError),
    Case("selfplay-other-bots", lambda g: _selfplay_folder(bots=["random"]), IndigoError),
    Case("selfplay-shard-size-0", lambda g: _selfplay_folder(shard_size=0), IndigoError),
    Case("selfplay-games-negative", lambda g: _selfplay_folder(games=-1), IndigoError),
    Case("selfplay-bot-unknown", lambda g: _selfplay_folder(bots=["chess"]), IndigoError),
    Case("selfplay-load-no-folder", lambda g: _load("/nonexistent/indigo"), IndigoError),
    Case("selfplay-load-batch-0", lambda g: _load("/nonexistent/indigo", 0), IndigoError),
    Case(
        "selfplay-games-2**32+1",
        lambda g: _selfplay_in(_fresh(), games=MAX_GAMES + 1, shard_size=2**20),
        IndigoError,
    ),
    Case(
        "selfplay-100001-shards",
        lambda g: _selfplay_in(_fresh(), games=100_001, shard_size=1),
        IndigoError,
    ),
    Case(
        "selfplay-60-bots-4-seats",
        lambda g: _selfplay_in(_fresh(), bots=["greedy"] * 60, rules=Rules.indigo(4)),
        IndigoError,
    ),
    Case("selfplay-out-empty", lambda g: _empty_folder_name(), IndigoError),
    Case(
        "selfplay-out-a-file",
        lambda g: _selfplay_in(_fresh(("run", b"x"))),
        IndigoError,
    ),
    Case(
        "selfplay-out-under-a-file",
        lambda g: _selfplay_in(_fresh(("run", b"x")) / "run"),
        IndigoError,
    ),
    Case(
        "selfplay-manifest-binary",
        lambda g: _selfplay_in(_fresh(("run/manifest.json", b"\x89PNG\xff\x00"))),
        IndigoError,
    ),
    Case(
        "selfplay-manifest-not-json",
        lambda g: _selfplay_in(_fresh(("run/manifest.json", b"{not json"))),
        IndigoError,
    ),
    Case(
        "selfplay-manifest-list",
        lambda g: _selfplay_in(_fresh(("run/manifest.json", b"[1, 2]"))),
        IndigoError,
    ),
    Case(
        "selfplay-manifest-huge-int",
        lambda g: _selfplay_in(_fresh(("run/manifest.json", b"1" * 5000))),
        IndigoError,
    ),
    Case(
        "selfplay-manifest-a-folder",
        lambda g: _selfplay_in(_fresh(("run/manifest.json/x", b""))),
        IndigoError,
    ),
    Case(
        "selfplay-load-manifest-binary",
        lambda g: _load(_fresh(("run/manifest.json", b"\x00\xff"))),
        IndigoError,
    ),
    Case(
        "selfplay-load-manifest-games-str",
        lambda g: _load(
            _fresh(("run/manifest.json", b'{"format": "indigo-selfplay/1", "games": "2"}'))
        ),
        IndigoError,
    ),
    Case(
        "tournament-60-bots-4-seats",
        lambda g: run_tournament(["greedy"] * 60, players=4, games=1),
        RunError,
    ),
    Case(
        "tournament-317-bots-2-seats",
        lambda g: run_tournament(["random"] * 317, players=2, games=1),
        RunError,
    ),
    Case(
        "tournament-games-over-2**32",
        lambda g: run_tournament(["greedy"], players=2, games=MAX_GAMES + 1),
        RunError,
    ),
    Case(
        "tournament-games-rounded-over-2**32",
        lambda g: run_tournament(["greedy", "random", "ismcts:9"], players=2, games=MAX_GAMES - 1),
        RunError,
    ),
    Case("tournament-games-0", lambda g: run_tournament(["greedy"], players=2, games=0), RunError),
    Case(
        "tournament-rules-other-players",
        lambda g: run_tournament(["greedy"], players=3, games=1, rules=Rules.indigo(2)),
        RunError,
    ),
    Case(
        "tournament-threads-5000",
        lambda g: run_tournament(["greedy"], players=2, games=1, threads=5000),
        RunError,
    ),
    Case("local-backend-threads-negative", lambda g: LocalBackend(-1), RunError),
]


def _empty_folder_name() -> object:
    """A run into ``""`` from a fresh current folder, which must stay empty."""
    from indigo.selfplay import run_selfplay

    here = Path.cwd()
    root = _fresh().parent
    os.chdir(root)
    try:
        return _refused_in(root, lambda: run_selfplay(["greedy"], 2, ""))
    finally:
        os.chdir(here)


# ---------------------------------------------------------------------------------------------
# Integer parameters: any ``__index__`` value (numpy integers, bools) works as the same int; an
# out-of-range one is a ValueError subclass of the package, never an OverflowError.


def explicit_game() -> Game:
    return Game(Rules.indigo(2), chance="explicit")


def _snapshot(game: Game) -> str:
    return game.snapshot_json(legal=True)


# (name, call taking the int, a value in range, whether 2**64 - 1 is in range)
INT_PARAMETERS: list[tuple[str, Callable[[Any], object], int, bool]] = [
    ("rules-players", lambda n: Rules(players=n), 3, False),
    ("rules-hand-size", lambda n: Rules(hand_size=n), 1, False),
    ("rules-indigo", lambda n: Rules.indigo(n), 4, False),
    ("rules-tactical", lambda n: Rules.tactical(n), 2, False),
    ("rules-butterfly-garden", lambda n: Rules.butterfly_garden(n), 3, False),
    ("gate-owners", lambda n: Rules(3).gate_owners(n), 5, False),
    ("seat-colour", lambda n: Rules(3).seat_colour(n), 1, False),
    ("move-tile", lambda n: Move(n, 0, 0, -3), 4, False),
    ("move-rotation", lambda n: Move(4, n, 0, -3), 1, False),
    ("move-q", lambda n: Move(4, 0, n, -3), 0, False),
    ("move-r", lambda n: Move(4, 0, 1, n), -3, False),
    ("move-from-action", lambda n: Move.from_action(n), 17, False),
    ("game-seed", lambda n: Game(seed=n).pile, 7, True),
    ("game-pile-item", lambda n: Game(pile=[n, *BOX[1:]]).pile, BOX[0], False),
    ("hand", lambda n: mid_game().hand(n), 1, False),
    ("visible-hands", lambda n: mid_game().visible_hands(n), 1, False),
    ("tile-at-q", lambda n: mid_game().tile_at(n, -3), 0, False),
    ("tile-at-r", lambda n: mid_game().tile_at(-4, n), 1, False),
    ("snapshot-seat", lambda n: mid_game().snapshot(seat=n), 1, False),
    ("snapshot-json-seat", lambda n: mid_game().snapshot_json(seat=n), 0, False),
    ("play", lambda n: _snapshot(_played(n)), mid_game().legal_actions()[-1], False),
    ("is-legal", lambda n: mid_game().is_legal(n), 2, False),
    ("apply-chance", lambda n: _snapshot(_drawn(n)), 3, False),
    ("observation", lambda n: mid_game().observation(n).tolist(), 1, False),
    ("observation-string", lambda n: mid_game().observation_string(n), 0, False),
    ("private-information", lambda n: mid_game().private_information_string(n), 1, False),
    ("information-state", lambda n: mid_game().information_state_string(n), 1, False),
    ("information-hash", lambda n: mid_game().information_state_hash(n), 0, False),
    ("resample-seat", lambda n: _snapshot(mid_game().resample(n, seed=1)), 1, False),
    ("resample-seed", lambda n: _snapshot(mid_game().resample(0, seed=n)), 5, True),
    ("random-bot-seed", lambda n: RandomBot(seed=n).choose(mid_game()), 3, True),
    ("greedy-bot-seed", lambda n: GreedyBot(seed=n).choose(mid_game()), 3, True),
    ("playout-bot-seed", lambda n: PlayoutBot(seed=n).choose(mid_game()), 3, True),
    ("ismcts-simulations", lambda n: IsmctsBot(n, seed=1).choose(mid_game()), 20, False),
    ("ismcts-threads", lambda n: IsmctsBot(20, threads=n, seed=1).choose(mid_game()), 2, False),
    ("ismcts-seed", lambda n: IsmctsBot(20, seed=n).choose(mid_game()), 9, True),
    ("make-bot-seed", lambda n: make_bot("greedy", seed=n).choose(mid_game()), 4, True),
    ("simulate-games", lambda n: simulate(["greedy"], n, seed=1).checksum, 2, False),
    ("simulate-seed", lambda n: simulate(["greedy"], 1, seed=n).checksum, 2, True),
    ("simulate-start", lambda n: simulate(["greedy"], 1, start=n).checksum, 3, False),
    ("simulate-threads", lambda n: simulate(["greedy"], 2, threads=n).checksum, 1, False),
    (
        "simulate-lineup",
        lambda n: simulate(["greedy", "random"], 1, lineups=[[n, 0]]).checksum,
        1,
        False,
    ),
    ("simulation-pile", lambda n: simulate(["greedy"], 3).pile(n), 2, False),
    ("self-play-games", lambda n: self_play(["greedy"], n).records, 1, False),
    ("vector-games", lambda n: len(VectorGames(n, seed=1)), 3, False),
    ("vector-seed", lambda n: VectorGames(1, seed=n).reset()[0].tolist(), 3, True),
]
INT_IDS = [name for name, _, _, _ in INT_PARAMETERS]


def _played(action: Any) -> Game:
    game = mid_game()
    game.play(action)
    return game


def _drawn(tile: Any) -> Game:
    game = explicit_game()
    game.apply_action(tile)
    return game


@pytest.mark.parametrize(("call", "value"), [(c, v) for _, c, v, _ in INT_PARAMETERS], ids=INT_IDS)
def test_int_parameters_take_any_index_value(call: Callable[[Any], object], value: int) -> None:
    expected = call(value)
    kinds: list[Any] = [np.int64, np.int32, np.int16]
    if value >= 0:
        kinds.append(np.uint64)
    if 0 <= value < 256:
        kinds.append(np.uint8)
    if value in (0, 1):
        kinds.append(bool)
    for kind in kinds:
        assert call(kind(value)) == expected, kind


OUT_OF_RANGE: list[Any] = [10**30, -(10**30), HUGE, -HUGE, np.int64(-(2**63))]


@pytest.mark.parametrize(
    ("call", "top_fits"), [(c, t) for _, c, _, t in INT_PARAMETERS], ids=INT_IDS
)
def test_int_parameters_refuse_out_of_range_as_value_errors(
    call: Callable[[Any], object], top_fits: bool
) -> None:
    values = OUT_OF_RANGE if top_fits else [*OUT_OF_RANGE, np.uint64(2**64 - 1)]
    for value in values:
        with pytest.raises(IndigoError):
            call(value)


@pytest.fixture(autouse=True)
def watchdog() -> Any:
    """Kill the whole run (with every thread's traceback) if a case hangs, even in native code."""
    faulthandler.dump_traceback_later(HANG_SECONDS, exit=True)
    yield
    faulthandler.cancel_dump_traceback_later()


def fingerprint(game: Game) -> tuple[str, str, str]:
    return (game.snapshot_json(legal=True), game.record_json(), repr(game.moves))


@pytest.mark.parametrize("case", API, ids=[c.name for c in API])
def test_api_rejects(case: Case) -> None:
    game = GAMES[case.game]()
    before = fingerprint(game)
    start = time.perf_counter()
    caught: BaseException | None = None
    try:
        case.call(game)
    except BaseException as exc:  # a PanicException is a BaseException
        caught = exc
    assert caught is not None, f"no {case.error.__name__} raised"
    assert isinstance(caught, case.error), f"{type(caught).__mro__} is not {case.error}: {caught}"
    assert str(caught)
    assert time.perf_counter() - start < SECONDS
    assert fingerprint(game) == before


@pytest.mark.parametrize(
    ("value", "at"), [(v, a) for _, v, a in FROM_RECORD], ids=[n for n, _, _ in FROM_RECORD]
)
def test_record_error_names_the_field(value: Any, at: str | int) -> None:
    with pytest.raises(RecordError) as info:
        Game.from_record(value)
    assert info.value.at == at


def test_a_seed_that_does_not_shuffle_to_the_pile_is_information() -> None:
    """FORMATS.md: the pile is the truth; another program's seed means its own generator."""
    foreign = record(seed=2)
    assert Game(mid_game().rules, seed=2).to_record()["pile"] != foreign["pile"]
    game = Game.from_record(foreign)
    assert game == mid_game()
    assert game.seed == 2
    assert game.to_record() == foreign


# ---------------------------------------------------------------------------------------------
# CLI: exit status 2, one line on stderr


def _file(tmp_path: Path, content: bytes) -> str:
    path = tmp_path / "record.json"
    path.write_bytes(content)
    return str(path)


REPLAY_FILES: list[tuple[str, Callable[[Path], str]]] = [
    ("missing-file", lambda d: str(d / "nope.json")),
    ("directory", lambda d: str(d)),
    ("empty-file", lambda d: _file(d, b"")),
    ("invalid-json", lambda d: _file(d, b"{")),
    ("json-array", lambda d: _file(d, b"[]")),
    ("non-utf8", lambda d: _file(d, b'{"format": "\xff"}')),
    ("utf8-bom", lambda d: _file(d, b"\xef\xbb\xbf{}")),
    ("deep-nesting", lambda d: _file(d, b"[" * 100_000 + b"]" * 100_000)),
    ("huge-int", lambda d: _file(d, b'{"format": ' + b"1" * 5000 + b"}")),
    ("nan", lambda d: _file(d, text(with_rules(players=float("nan"))).encode())),
    ("infinity", lambda d: _file(d, b'{"format": "indigo-record/1", "pile": [1e999]}')),
    ("duplicate-key", lambda d: _file(d, (text(record())[:-1] + ', "format": "x"}').encode())),
    ("bad-format", lambda d: _file(d, text(record(format="x")).encode())),
    ("bad-rules", lambda d: _file(d, text(with_rules(players=9)).encode())),
    ("bad-pile", lambda d: _file(d, text(record(pile=[0] * 54)).encode())),
    ("bad-move", lambda d: _file(d, text(with_move(2, rotation=-1)).encode())),
    ("illegal-move", lambda d: _file(d, text(record(moves=record()["moves"] * 2)).encode())),
    ("ten-megabytes", lambda d: _file(d, b" " * 10**7 + b"{")),
]


@pytest.mark.parametrize(
    ("make", "snapshots"),
    [(m, s) for _, m in REPLAY_FILES for s in (False, True)],
    ids=[f"{n}{'-snapshots' if s else ''}" for n, _ in REPLAY_FILES for s in (False, True)],
)
def test_cli_replay_rejects(
    make: Callable[[Path], str], snapshots: bool, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["replay", make(tmp_path), *(["--snapshots", "--legal"] if snapshots else [])]
    start = time.perf_counter()
    assert main(argv) == 2
    assert time.perf_counter() - start < SECONDS
    out, err = capsys.readouterr()
    assert out == ""
    assert "Traceback" not in err
    assert len(err.splitlines()) == 1, err
    assert err.startswith("indigo: error: ")


def test_cli_replay_rejects_bad_stdin(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO('{"format": ' + "1" * 5000 + "}"))
    assert main(["replay", "-"]) == 2
    _, err = capsys.readouterr()
    assert len(err.splitlines()) == 1
    assert err.startswith("indigo: error: <stdin>")


SIXTY_BOTS = ",".join(["greedy"] * 60)
SELFPLAY = ["selfplay", "--bots", "greedy", "--games", "2", "--out"]

CLI: list[tuple[str, list[str]]] = [
    # Argument errors (argparse)
    ("demo-players-huge", ["demo", "--players", "99999999999999999999999"]),
    ("demo-seed-5000-digits", ["demo", "--seed", "9" * 5000]),
    ("demo-seed-2**63", ["demo", "--seed", str(2**63)]),
    ("demo-board-every-negative", ["demo", "--board-every", "-1"]),
    ("demo-delay-inf", ["demo", "--delay", "inf"]),
    ("demo-delay-1e10", ["demo", "--delay", "1e10"]),
    ("demo-delay-3601", ["demo", "--delay", "3601"]),
    ("replay-unknown-option", ["replay", "x.json", "--frobnicate"]),
    ("tournament-backend-unknown", ["tournament", "--bots", "greedy", "--backend", "spark"]),
    ("tournament-workers-0", ["tournament", "--bots", "greedy", "--workers", "0"]),
    ("tournament-batch-size-negative", ["tournament", "--bots", "greedy", "--batch-size", "-3"]),
    ("tournament-games-5000-digits", ["tournament", "--bots", "greedy", "--games", "9" * 5000]),
    ("selfplay-no-out", ["selfplay", "--bots", "greedy", "--games", "2"]),
    ("selfplay-games-0", ["selfplay", "--bots", "greedy", "--games", "0", "--out", "x"]),
    (
        "selfplay-shard-size-0",
        ["selfplay", "--bots", "greedy", "--games", "2", "--out", "x", "--shard-size", "0"],
    ),
    ("selfplay-bot-unknown", ["selfplay", "--bots", "chess", "--games", "2", "--out", "x"]),
    ("render-out-empty", ["render", "record.json", "-o", ""]),
    ("render-out-a-folder", ["render", "record.json", "-o", "."]),
    ("render-out-under-a-file", ["render", "record.json", "-o", "a-file/board.svg"]),
    ("render-out-no-folder", ["render", "record.json", "-o", "no-such-folder/board.svg"]),
    ("play-save-empty", ["play", "--save", ""]),
    ("play-save-a-folder", ["play", "--save", "corrupt"]),
    ("play-save-under-a-file", ["play", "--save", "a-file/record.json"]),
    ("serve-port-65536", ["serve", "--port", "65536"]),
    ("serve-port-negative", ["serve", "--port", "-1"]),
    ("serve-port-huge", ["serve", "--port", "9" * 30]),
    ("bench-repeat-0", ["bench", "--repeat", "0"]),
    ("bench-repeat-5000-digits", ["bench", "--repeat", "9" * 5000]),
    # Values out of the engine's bounds
    ("tournament-games-5e9", ["tournament", "--bots", "greedy", "--games", "5000000000"]),
    (
        "tournament-games-rounded-over-2**32",
        ["tournament", "--bots", "greedy,random,ismcts:9", "--games", str(2**32 - 1)],
    ),
    ("tournament-threads-5000", ["tournament", "--bots", "greedy,random", "--threads", "5000"]),
    (
        "tournament-60-bots-4-seats",
        ["tournament", "--bots", SIXTY_BOTS, "--players", "4", "--games", "1"],
    ),
    (
        "tournament-60-bots-ray",
        ["tournament", "--bots", SIXTY_BOTS, "--players", "4", "--games", "1", "--backend", "ray"],
    ),
    (
        "selfplay-games-5e9",
        ["selfplay", "--bots", "greedy", "--games", "5000000000", "--out", "run"],
    ),
    (
        "selfplay-100001-shards",
        ["selfplay", "--bots", "greedy", "--games", "100001", "--shard-size", "1", "--out", "run"],
    ),
    (
        "selfplay-60-bots-4-seats",
        ["selfplay", "--bots", SIXTY_BOTS, "--players", "4", "--games", "1", "--out", "run"],
    ),
    ("selfplay-threads-5000", [*SELFPLAY, "run", "--threads", "5000"]),
    # Places self-play cannot write to, or folders that hold something else
    ("selfplay-out-empty", [*SELFPLAY, ""]),
    ("selfplay-out-a-file", [*SELFPLAY, "a-file"]),
    ("selfplay-out-under-a-file", [*SELFPLAY, "a-file/run"]),
    ("selfplay-out-in-proc", [*SELFPLAY, "/proc/indigo-selfplay"]),
    ("selfplay-manifest-not-json", [*SELFPLAY, "corrupt"]),
    ("selfplay-manifest-binary", [*SELFPLAY, "binary"]),
    ("selfplay-manifest-list", [*SELFPLAY, "list"]),
    ("selfplay-manifest-other-format", [*SELFPLAY, "other-format"]),
    ("selfplay-manifest-a-folder", [*SELFPLAY, "manifest-folder"]),
    # Places the web server cannot listen on
    ("serve-host-label-too-long", ["serve", "--host", "a" * 70]),
    (
        "serve-host-not-this-machine",
        ["serve", "--host", "192.0.2.1"],
    ),  # TEST-NET-1: no address of this machine
]


def _cli_files(root: Path) -> None:
    """What the CLI cases name, in the current folder: a record, a file, and self-play
    folders with a bad manifest."""
    (root / "record.json").write_text(text(record()))
    (root / "a-file").write_text("a file, not a folder")
    for name, content in (
        ("corrupt", b'{"format": "indigo-selfplay/1", '),
        ("binary", bytes(range(256))),
        ("list", b"[]"),
        ("other-format", b'{"format": "indigo-selfplay/0"}'),
    ):
        (root / name).mkdir()
        (root / name / "manifest.json").write_bytes(content)
    (root / "manifest-folder" / "manifest.json").mkdir(parents=True)


@pytest.mark.parametrize("argv", [argv for _, argv in CLI], ids=[name for name, _ in CLI])
def test_cli_refuses(
    argv: list[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """One line ``indigo[ COMMAND]: error: ...``, status 2, nothing on stdout, nothing
    written (an argument error also names the help)."""
    _cli_files(tmp_path)
    monkeypatch.chdir(tmp_path)
    before = tree(tmp_path)
    start = time.perf_counter()
    assert main(argv) == 2
    assert time.perf_counter() - start < SECONDS
    out, err = capsys.readouterr()
    assert out == ""
    assert "Traceback" not in err
    assert len(err.splitlines()) == 1, err
    assert err.startswith("indigo")
    assert ": error: " in err
    assert tree(tmp_path) == before


def test_cli_serve_refuses_a_busy_port(capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        assert main(["serve", "--port", str(port)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == f"indigo: error: cannot listen on 127.0.0.1:{port}: Address already in use\n"


def test_tournament_refuses_a_huge_lineup_before_building_it() -> None:
    """60 bots in 4 seats: refused with the count and the cap, having built nothing."""
    tracemalloc.start()
    try:
        with pytest.raises(RunError, match=r"11,703,240 seatings.* cap is 100,000") as info:
            run_tournament(["greedy"] * 60, players=4, games=1)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert isinstance(info.value, IndigoError)
    assert f"{MAX_SEATINGS:,}" in str(info.value)
    assert peak < 2**20, f"{peak} bytes allocated"


def test_enough_cases() -> None:
    cli = 2 * len(REPLAY_FILES) + 1 + len(CLI) + 1
    assert len(API) + len(FROM_RECORD) + cli >= 100


# Round three (issue 28, items 5 to 7), over both games where a call exists in both: an int
# outside i64 is refused with the package's error showing the value given (not a clamped
# one), and text Unicode cannot encode (a lone surrogate) with the package's error naming the
# argument. Each call changes nothing.
LONE = "take \ud800"
BOTH = ("indigo", "queens-garden")
INDIGO_ONLY = ("indigo",)
GARDEN_ONLY = ("queens-garden",)
CLAMPED = ("9223372036854775807", "9223372036854775808")


def _uniform(observations: Any, masks: Any) -> tuple[Any, Any]:
    """A 2-player evaluator: uniform priors over the legal actions, values 0."""
    return masks / masks.sum(1, keepdims=True), np.zeros((len(observations), 2))


ROUND_THREE: list[
    tuple[str, tuple[str, ...], Callable[[Any, Any], object], type[Exception], str]
] = [
    ("move-parse-surrogate", BOTH, lambda e, g: e.move.parse(LONE), IndigoError, "text must"),
    ("play-surrogate", BOTH, lambda e, g: g.play(LONE), IndigoError, "move must"),
    ("is-legal-surrogate", BOTH, lambda e, g: g.is_legal(LONE), IndigoError, "move must"),
    ("make-bot-surrogate", BOTH, lambda e, g: e.make_bot(LONE), IndigoError, "spec must"),
    (
        "indigo-make-bot-surrogate",
        BOTH,
        lambda e, g: make_bot(LONE, game=e.name),
        IndigoError,
        "spec must",
    ),
    ("returns-surrogate", BOTH, lambda e, g: g.returns(LONE), IndigoError, "utility must"),
    ("play-action-2**64", BOTH, lambda e, g: g.play(2**64), MoveError, str(2**64)),
    ("apply-action-2**64", BOTH, lambda e, g: g.apply_action(2**64), MoveError, str(2**64)),
    ("from-action-huge", BOTH, lambda e, g: e.move.from_action(HUGE), MoveError, "2**127"),
    ("resample-seat-2**64", BOTH, lambda e, g: g.resample(2**64), IndigoError, str(2**64)),
    ("rules-theme-surrogate", INDIGO_ONLY, lambda e, g: Rules(theme=LONE), IndigoError, "theme"),
    (
        "rules-preset-surrogate",
        INDIGO_ONLY,
        lambda e, g: Rules.preset(LONE),
        IndigoError,
        "theme must",
    ),
    ("game-chance-surrogate", INDIGO_ONLY, lambda e, g: Game(chance=LONE), IndigoError, "chance"),
    (
        "apply-chance-2**64",
        INDIGO_ONLY,
        lambda e, g: Game(chance="explicit").apply_action(2**64),
        MoveError,
        str(2**64),
    ),
    ("move-tile-2**64", INDIGO_ONLY, lambda e, g: Move(2**64, 0, 0, -3), MoveError, str(2**64)),
    (
        "vector-game-negative",
        INDIGO_ONLY,
        lambda e, g: VectorGames(2, seed=1).game(-1),
        IndigoError,
        "not -1",
    ),
    (
        "vector-record-2**64",
        INDIGO_ONLY,
        lambda e, g: VectorGames(2, seed=1).record(2**64),
        IndigoError,
        str(2**64),
    ),
    ("ismcts-2**64", INDIGO_ONLY, lambda e, g: IsmctsBot(2**64), IndigoError, str(2**64)),
    ("ismcts-huge", INDIGO_ONLY, lambda e, g: IsmctsBot(HUGE), IndigoError, "above 2**127"),
    (
        "ismcts-threads-huge",
        INDIGO_ONLY,
        lambda e, g: IsmctsBot(10, threads=-HUGE),
        IndigoError,
        "below -2**127",
    ),
    ("puct-huge", INDIGO_ONLY, lambda e, g: PuctBot(print, HUGE), IndigoError, "above 2**127"),
    (
        "puct-batch-2**64",
        INDIGO_ONLY,
        lambda e, g: PuctBot(print, 8, batch_size=2**64),
        IndigoError,
        str(2**64),
    ),
    (
        "ismcts-time-huge",
        INDIGO_ONLY,
        lambda e, g: IsmctsBot(time=HUGE),
        IndigoError,
        "above 2**1023",
    ),
    (
        "puct-c-huge",
        INDIGO_ONLY,
        lambda e, g: PuctBot(print, 8, c_puct=-HUGE),
        IndigoError,
        "below -2**1023",
    ),
    (
        "simulate-interval-huge",
        BOTH,
        lambda e, g: simulate(["random", "random"], 1, interval=HUGE, game=e.name),
        IndigoError,
        "above 2**1023",
    ),
    (
        "simulate-games-2**64",
        BOTH,
        lambda e, g: simulate(["random", "random"], 2**64, game=e.name),
        IndigoError,
        str(2**64),
    ),
    (
        "chance-outcomes-2**64",
        GARDEN_ONLY,
        lambda e, g: g.chance_outcomes(0, [2**64]),
        IndigoError,
        str(2**64),
    ),
    ("successor-2**64", GARDEN_ONLY, lambda e, g: g.successor(0, [2**64]), IndigoError, str(2**64)),
    (
        "first-draw-outcomes-2**63",
        GARDEN_ONLY,
        lambda e, g: e.game.first_draw_outcomes([2**63]),
        IndigoError,
        str(2**63),
    ),
    (
        "with-first-draws-2**64",
        GARDEN_ONLY,
        lambda e, g: e.game.with_first_draws(e.default_rules(2), [2**64, 0, 0, 0]),
        IndigoError,
        str(2**64),
    ),
]


@pytest.mark.parametrize(
    ("call", "entry", "error", "shows"),
    [
        pytest.param(call, entry, error, shows, id=f"{name}-{entry.name}")
        for name, games, call, error, shows in ROUND_THREE
        for entry in ENTRIES
        if entry.name in games
    ],
)
def test_round_three_refusals_show_what_was_given(
    call: Callable[[Any, Any], object], entry: Any, error: type[Exception], shows: str
) -> None:
    game = entry.game(entry.default_rules(2), seed=1)
    before = (game.snapshot_json(), game.record_json())
    with pytest.raises(error) as info:
        call(entry, game)
    message = str(info.value)
    assert shows in message
    assert not any(clamped in message for clamped in CLAMPED if clamped not in shows)
    assert (game.snapshot_json(), game.record_json()) == before


def test_a_puct_evaluator_that_calls_its_own_bot_is_refused() -> None:
    position = Game(Rules.indigo(2), seed=1)
    inner: list[BaseException] = []

    def evaluator(observations: Any, masks: Any) -> Any:
        try:
            bot.choose(position)
        except IndigoError as exc:
            inner.append(exc)
        return _uniform(observations, masks)

    reentrant = PuctBot(evaluator, 4, seed=1)
    bot = reentrant
    move = reentrant.choose(position)
    assert position.is_legal(move)
    assert inner
    assert "searching already" in str(inner[0])
    assert position.is_legal(reentrant.choose(position))  # the bot is free again afterwards

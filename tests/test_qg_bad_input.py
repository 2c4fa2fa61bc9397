"""Bad input at every entry point of ``indigo.queens_garden``.

Bad values raise the stated :class:`indigo.IndigoError` subclass (a ``ValueError``), wrong Python
types a ``TypeError`` (as everywhere in the package); never a pyo3 ``PanicException``. The game a
call was given is unchanged afterwards, down to its snapshot and record.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from indigo import IllegalMoveError, IndigoError, MoveError, RecordError, RulesError
from indigo import queens_garden as qg
from qg_support import GAME_NAMES, load

BIG = 2**64
HUGE = 10**5000
WHEEL = [["bl", "dg", "1"], ["ye", "2", "3"], ["lg", "lp", "4"], ["dp", "5", "6"]]
JOKERS = {"fountain": 1, "statue": 2, "bench": 2, "pavilion": 3}


def start() -> qg.Game:
    return qg.Game(qg.Rules(3), seed=2)


def mid() -> qg.Game:
    game = qg.Game(qg.Rules(2), seed=1)
    bot = qg.make_bot("random", seed=1)
    for _ in range(30):
        game.play(bot.choose(game))
    return game


def over() -> qg.Game:
    return qg.Game.from_record(load(GAME_NAMES[0])["record"])


GAMES: dict[str, Callable[[], qg.Game]] = {"start": start, "mid": mid, "over": over}


def record(**changes: Any) -> dict[str, Any]:
    """The mid game's record with top-level fields replaced (``None`` drops the field)."""
    out = mid().to_record()
    for key, value in changes.items():
        if value is None:
            out.pop(key)
        else:
            out[key] = value
    return out


def with_rules(**changes: Any) -> dict[str, Any]:
    return record(rules={**record()["rules"], **changes})


ILLEGAL_CANDIDATES = (
    "tile bl1 a00",
    "tile dp1 a50",
    "exp bl1 a00",
    "take 2 bl2@9",
    "buy a0",
    "buy a5",
)


def illegal(game: qg.Game) -> str:
    """A move in good notation that is not legal in ``game``."""
    return next(text for text in ILLEGAL_CANDIDATES if not game.is_legal(text))


@dataclass(frozen=True)
class Case:
    name: str
    call: Callable[[qg.Game], object]
    error: type[Exception]
    game: str = "mid"


CASES = [
    # Rules
    Case("rules-players-5", lambda g: qg.Rules(5), RulesError),
    Case("rules-players-1", lambda g: qg.Rules(1), RulesError),
    Case("rules-players-negative", lambda g: qg.Rules(-2), RulesError),
    Case("rules-players-huge", lambda g: qg.Rules(HUGE), RulesError),
    Case("rules-players-str", lambda g: qg.Rules("2"), TypeError),
    Case("rules-players-float", lambda g: qg.Rules(2.0), TypeError),
    Case("rules-wheel-3-rounds", lambda g: qg.Rules(2, wheel=WHEEL[:3]), RulesError),
    Case("rules-wheel-5-rounds", lambda g: qg.Rules(2, wheel=[*WHEEL, WHEEL[0]]), RulesError),
    Case("rules-wheel-2-categories", lambda g: qg.Rules(2, wheel=[["bl", "ye"]] * 4), RulesError),
    Case("rules-wheel-repeat", lambda g: qg.Rules(2, wheel=[["bl", "bl", "1"]] * 4), RulesError),
    Case("rules-wheel-unknown", lambda g: qg.Rules(2, wheel=[["bl", "xx", "1"]] * 4), RulesError),
    Case("rules-wheel-pattern-7", lambda g: qg.Rules(2, wheel=[["bl", "7", "1"]] * 4), RulesError),
    Case("rules-wheel-upper", lambda g: qg.Rules(2, wheel=[["BL", "ye", "1"]] * 4), RulesError),
    Case("rules-wheel-kind", lambda g: qg.Rules(2, wheel=[["bl1", "ye", "1"]] * 4), RulesError),
    Case("rules-wheel-int", lambda g: qg.Rules(2, wheel=[["bl", "ye", 1]] * 4), TypeError),
    Case("rules-wheel-str", lambda g: qg.Rules(2, wheel="bl dg 1"), TypeError),
    Case("rules-jokers-missing", lambda g: qg.Rules(2, jokers={"fountain": 1}), RulesError),
    Case(
        "rules-jokers-extra",
        lambda g: qg.Rules(2, jokers={**JOKERS, "hedge": 1}),
        RulesError,
    ),
    Case("rules-jokers-13", lambda g: qg.Rules(2, jokers={**JOKERS, "bench": 13}), RulesError),
    Case(
        "rules-jokers-negative",
        lambda g: qg.Rules(2, jokers={**JOKERS, "statue": -1}),
        RulesError,
    ),
    Case("rules-jokers-huge", lambda g: qg.Rules(2, jokers={**JOKERS, "statue": HUGE}), RulesError),
    Case(
        "rules-jokers-float",
        lambda g: qg.Rules(2, jokers={**JOKERS, "statue": 2.0}),
        TypeError,
    ),
    Case("rules-jokers-list", lambda g: qg.Rules(2, jokers=[1, 2, 2, 3]), TypeError),
    Case("rules-unknown-keyword", lambda g: qg.Rules(2, hand_size=1), TypeError),
    # Move.parse: notation garbage
    *(
        Case(f"parse-{name}", lambda g, t=text: qg.Move.parse(t), MoveError)
        for name, text in {
            "empty": "",
            "space": " ",
            "upper": "TAKE BL",
            "double-space": "take  bl",
            "leading-space": " take bl",
            "trailing-space": "take bl ",
            "unknown-action": "draw bl",
            "take-nothing": "take",
            "take-kind": "take bl1",
            "take-two-attributes": "take bl ye",
            "take-slot-leading-zero": "take 2 ye2@01",
            "take-slot-negative": "take 2 ye2@-1",
            "take-slot-huge": "take 2 ye2@99999999999999999999999",
            "take-copy-twice": "take 2 ye2@0 ye2@1",
            "tile-no-cell": "tile bl3",
            "tile-bad-kind": "tile bl7 f0",
            "tile-bad-cell": "tile bl3 f6",
            "tile-area-6": "tile bl3 a60",
            "tile-too-few-discards": "tile bl3 f0 ye3",
            "tile-too-many-discards": "tile bl3 f0 ye3 dg3 *",
            "tile-tree-with-discard": "tile bl1 f0 *",
            "buy-cell": "buy a03",
            "buy-area-6": "buy a6",
            "pass-joker": "pass *",
            "pass-garbage": "pass ???",
            "tab": "take\tbl",
            "nul": "take bl\x00",
            "fullwidth": "take \uff42l",
            "megabyte": "take " + "1" * 10**6,
        }.items()
    ),
    Case("parse-bytes", lambda g: qg.Move.parse(b"take bl"), TypeError),
    Case("parse-none", lambda g: qg.Move.parse(None), TypeError),
    Case("parse-surrogate", lambda g: qg.Move.parse("take bl\ud800"), IndigoError),
    # Game()
    Case("game-rules-str", lambda g: qg.Game("2"), TypeError),
    Case("game-indigo-rules", lambda g: qg.Game(__import__("indigo").Rules()), TypeError),
    Case("game-positional-seed", lambda g: qg.Game(qg.Rules(), 5), TypeError),
    Case("game-seed-negative", lambda g: qg.Game(seed=-1), IndigoError),
    Case("game-seed-2**64", lambda g: qg.Game(seed=BIG), IndigoError),
    Case("game-seed-huge", lambda g: qg.Game(seed=HUGE), IndigoError),
    Case("game-seed-float", lambda g: qg.Game(seed=1.5), TypeError),
    Case("game-seed-str", lambda g: qg.Game(seed="1"), TypeError),
    # play / is_legal: wrong types, garbage, illegal moves
    Case(
        "play-action-illegal",
        lambda g: g.play(min(set(range(100)) - set(g.legal_actions()))),
        IllegalMoveError,
    ),
    Case("play-action-out-of-range", lambda g: g.play(qg.ACTION_COUNT), MoveError),
    Case("play-float", lambda g: g.play(2.0), TypeError),
    Case("play-none", lambda g: g.play(None), TypeError),
    Case(
        "play-indigo-move", lambda g: g.play(__import__("indigo").Move.parse("0@0:0,-1")), TypeError
    ),
    Case("play-garbage", lambda g: g.play("take"), MoveError),
    Case("play-upper", lambda g: g.play("PASS"), MoveError),
    Case("play-illegal", lambda g: g.play(illegal(g)), IllegalMoveError),
    Case("play-exp-on-a-centre", lambda g: g.play("exp lg1 a0c"), IllegalMoveError),
    Case("play-exp-on-the-fountain-board", lambda g: g.play("exp lg1 f0"), IllegalMoveError),
    Case("play-illegal-at-start", lambda g: g.play(illegal(g)), IllegalMoveError, game="start"),
    Case("play-illegal-move-object", lambda g: g.play(qg.Move.parse(illegal(g))), IllegalMoveError),
    Case(
        "play-pass-discards-missing", lambda g: g.play("pass " + "dp6 " * 12 + "dp6"), IndigoError
    ),
    Case(
        "play-pass-many-discards", lambda g: g.play("pass " + "bl1 " * 10**5 + "bl1"), IndigoError
    ),
    Case("play-after-over", lambda g: g.play("pass"), IllegalMoveError, game="over"),
    Case("play-buy-after-over", lambda g: g.play("buy a0"), IllegalMoveError, game="over"),
    Case("is-legal-garbage", lambda g: g.is_legal("tile"), MoveError),
    Case("is-legal-action-negative", lambda g: g.is_legal(-1), MoveError),
    Case("undo-at-start", lambda g: g.undo(), IndigoError, game="start"),
    Case("snapshot-legal-str", lambda g: g.snapshot(legal="yes"), TypeError),
    Case("snapshot-positional", lambda g: g.snapshot(True), TypeError),
    # pickling's restore
    Case("setstate-not-json", lambda g: g.__setstate__(b"{"), RecordError),
    # The (record, seed) pairs of older pickles were never released: not a state.
    Case("setstate-record-pair", lambda g: g.__setstate__((mid().record_json(), 5)), TypeError),
    Case("setstate-int", lambda g: g.__setstate__(5), TypeError),
    # from_record: bad records in every form
    Case("record-int", lambda g: qg.Game.from_record(5), RecordError),
    Case("record-list", lambda g: qg.Game.from_record([]), RecordError),
    Case("record-not-json", lambda g: qg.Game.from_record("{"), RecordError),
    Case("record-empty-text", lambda g: qg.Game.from_record(""), RecordError),
    Case("record-not-utf8", lambda g: qg.Game.from_record(b"\xff\xfe"), RecordError),
    Case("record-nan", lambda g: qg.Game.from_record(record(moves=[float("nan")])), RecordError),
    Case("record-set", lambda g: qg.Game.from_record({"format": {1}}), RecordError),
    Case(
        "record-indigo-format",
        lambda g: qg.Game.from_record(record(format="indigo-record/1")),
        RecordError,
    ),
    Case("record-no-bag", lambda g: qg.Game.from_record(record(bag=None)), RecordError),
    Case("record-players-str", lambda g: qg.Game.from_record(with_rules(players="2")), RecordError),
    Case(
        "record-players-float", lambda g: qg.Game.from_record(with_rules(players=2.0)), RecordError
    ),
    Case(
        "record-players-true", lambda g: qg.Game.from_record(with_rules(players=True)), RecordError
    ),
    Case("record-unknown-rule", lambda g: qg.Game.from_record(with_rules(theme="x")), RecordError),
    Case("record-move-int", lambda g: qg.Game.from_record(record(moves=[1])), RecordError),
    Case(
        "record-move-illegal",
        lambda g: qg.Game.from_record(record(moves=["tile bl1 a00"])),
        RecordError,
    ),
    Case("record-deep", lambda g: qg.Game.from_record("[" * 100000 + "]" * 100000), RecordError),
    Case(
        "record-bytes-text",
        lambda g: qg.Game.from_record(json.dumps(record(bag=[])).encode()),
        RecordError,
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_bad_input(case: Case) -> None:
    game = GAMES[case.game]()
    before = (game.snapshot_json(legal=True), game.record_json(), game.moves)
    with pytest.raises(case.error) as info:
        case.call(game)
    if issubclass(case.error, IndigoError):
        assert isinstance(info.value, ValueError)
        assert str(info.value), "the message says what is wrong"
    assert (game.snapshot_json(legal=True), game.record_json(), game.moves) == before


RECORD_CASES = [
    ("record", 5),
    ("format", {"format": "queens-garden-record/2"}),
    ("rules", {"format": qg.RECORD_FORMAT, "rules": []}),
]


@pytest.mark.parametrize(("at", "value"), RECORD_CASES)
def test_record_error_location(at: str, value: Any) -> None:
    for given in (value, json.dumps(value), json.dumps(value).encode()):
        with pytest.raises(RecordError) as info:
            qg.Game.from_record(given)
        assert info.value.at == at  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "given", [b"\xff\xfe", "{", "", "[" * 100000, {"format": {1}}, {"moves": [float("inf")]}]
)
def test_not_json_is_named_record(given: Any) -> None:
    with pytest.raises(RecordError) as info:
        qg.Game.from_record(given)
    assert info.value.at == "record"  # type: ignore[attr-defined]


def test_one_except_serves_both_games() -> None:
    """Indigo and Queen's Garden raise the same classes: one handler catches both."""
    import indigo

    for bad in (
        lambda: indigo.Game.from_record({"format": "x"}),
        lambda: qg.Game.from_record({"format": "x"}),
    ):
        with pytest.raises(indigo.RecordError) as info:
            bad()
        assert info.value.at == "format"  # type: ignore[attr-defined]

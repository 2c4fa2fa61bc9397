"""The registry of games: one :class:`GameEntry` per game the package plays, in :data:`GAMES`,
and :func:`find_game`, which every surface (CLI, web, tournament, self-play, engine protocol,
adapters, bots, pictures) asks for the game it serves, in the spirit of python-chess's
``VARIANTS`` and ``find_variant``.

>>> from indigo.games import GAMES, find_game
>>> [entry.name for entry in GAMES]
['indigo', 'queens-garden']
>>> entry = find_game("queens-garden")
>>> game = entry.game(entry.default_rules(2), seed=7)
>>> find_game(game) is entry, find_game(game.to_record()) is entry
(True, True)
>>> find_game("chess")
Traceback (most recent call last):
...
indigo.IndigoError: unknown game 'chess': expected "indigo" or "queens-garden"

An entry's surface hooks (its pictures, terminal play, web views, self-play samples) import
their modules when first called, so that looking a game up costs no optional dependency.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final, Generic, TypeVar

from indigo import _native
from indigo._native import IndigoError
from indigo._native import queens_garden as _garden

__all__ = [
    "GAMES",
    "INDIGO",
    "QUEENS_GARDEN",
    "GameEntry",
    "find_game",
    "record_game",
    "titles",
]

G = TypeVar("G")
R = TypeVar("R")
M = TypeVar("M")


def _hook(path: str) -> Callable[..., Any]:
    """The callable ``module:name``, its module imported at the first call."""
    module, _, name = path.partition(":")

    def call(*args: Any, **kwargs: Any) -> Any:
        return getattr(importlib.import_module(module), name)(*args, **kwargs)

    call.__name__ = call.__qualname__ = name
    call.__doc__ = f"``{path}``, imported when first called."
    return call


@dataclass(frozen=True, eq=False)
class GameEntry(Generic[G, R, M]):
    """One game: its names, its classes, its formats, and what each surface needs to serve
    it. ``G``, ``R``, ``M``: its ``Game``, ``Rules`` and ``Move`` classes."""

    name: str
    """The name the CLI, the web's JSON and the engine protocol use: ``"indigo"``."""
    title: str
    """The game's name for people: ``"Indigo"``."""
    module: str
    """The module that holds the game: ``"indigo"``, ``"indigo.queens_garden"``."""
    game: type[G]
    rules: type[R]
    move: type[M]
    bots: tuple[type[Any], ...]
    """The classes of the native bots :attr:`make_bot` makes."""
    selfplay_batch: type[Any]
    """The class of the native self-play batches of this game."""
    record_format: str
    """A game record's ``format``: ``"indigo-record/1"``."""
    snapshot_format: str
    """A position snapshot's ``format``."""
    openspiel_name: str
    """The game's name in OpenSpiel (``pyspiel.load_game``), registered by :attr:`openspiel`."""
    openspiel: str
    """The module whose import registers the OpenSpiel game."""
    python_bots: bool
    """Whether bot objects and policy callables (:data:`indigo.bots.BotLike`) play it, or
    only bot specs."""
    default_rules: Callable[[int], R]
    """The default rules for N players."""
    table_rules: Callable[[int, str, int | None, str], R]
    """The rules a table's options name (``players, theme, hand_size, gates``, as
    ``indigo demo``, ``indigo play`` and the web page give them); a game without themes,
    hand sizes or gate variants takes only ``players``."""
    simulate: Callable[..., Any]
    """``simulate(specs, games, *, rules, seed, lineups, start, threads, progress, interval,
    deal)``: its games between native bots in Rust (:func:`indigo.simulate`'s fast path)."""
    self_play: Callable[..., Any]
    """``self_play(specs, games, *, rules, seed, lineups, start, threads, progress,
    interval)``: :attr:`simulate`'s games keeping records and samples
    (:func:`indigo.self_play`'s fast path)."""
    make_bot: Callable[..., Any]
    """``make_bot(spec, *, seed=None)``: its native bot of a spec (``random``, ``greedy``,
    ``ismcts:N``, ...); a bad spec raises :class:`~indigo.IndigoError`."""
    game_svg: Callable[..., str]
    """``game_svg(game, *, move=None)``: the position (after ``move`` moves) as SVG."""
    demo: Callable[..., int]
    """``demo(args, seed, *, colour, delay)``: ``indigo demo`` of this game, from its parsed
    arguments, set up from ``seed``, pausing ``delay`` seconds after each move."""
    terminal_play: Callable[..., Any]
    """``terminal_play(rules, seats, *, seed, stdin, out, colour, save, codes)``: a
    :class:`indigo.session.TerminalSession` of ``indigo play``."""
    web: str
    """The module of the web app's views of this game (:mod:`indigo.web.app` calls its
    ``rules_from_body``, ``view_json``, ``state_json``, ``play_json``, ``game_at``, ``theme``)."""
    samples: str
    """The module of its self-play samples (``FORMAT``, ``schema``, ``samples_table``,
    ``to_batch``, ``SampleBatch``, ``play``, ``manifest``: :mod:`indigo.selfplay` calls them),
    which needs the ``selfplay`` extra."""
    engine_rules: Callable[[dict[str, str]], R]
    """The rules of the engine protocol's ``rules KEY=VALUE ...`` words."""
    engine_options: str
    """The engine's ``option rules`` line of this game (after ``option rules``)."""
    c_prefix: str
    """The prefix of its calls in the C ABI (``rust/capi/include/indigo.h``):
    ``"indigo_game"`` for ``indigo_game_clone``, ``indigo_game_legal_actions``, ..."""
    observation_size: int
    """Values in one observation tensor (``game.observation(seat)``)."""
    observation_high: float
    """No observation value exceeds it (the learning environments' ``Box`` bound)."""
    action_count: int
    """Actions are numbered ``0 .. action_count - 1`` (``game.legal_actions()``)."""
    action_list: int | None
    """``None``: the learning environments' actions are the action numbers, their legal ones
    marked by a mask of :attr:`action_count`; an int ``K``: an action is an index into the
    position's legal actions (ascending), at most ``K`` of them (docs/envs.md)."""
    game_text: Callable[..., str]
    """``game_text(game, *, colour)``: the position as the learning environments' ``ansi``
    and ``human`` renders draw it."""
    move_log: Callable[..., list[list[str]]]
    """``move_log(game)``: every move of ``game`` in words, each its lines (the web log's)."""
    pettingzoo: str
    """The module of its PettingZoo AEC environment (``env``, ``raw_env``)."""
    gymnasium_id: str
    """Its Gymnasium environment's id, registered by importing :mod:`indigo.envs`."""

    def load(self, part: str) -> Any:
        """The module that :attr:`web` or :attr:`samples` (``part``) names, imported."""
        return importlib.import_module(getattr(self, part))

    def __repr__(self) -> str:
        return f"<GameEntry {self.name}>"


INDIGO: Final[GameEntry[_native.Game, _native.Rules, _native.Move]] = GameEntry(
    name="indigo",
    title="Indigo",
    module="indigo",
    game=_native.Game,
    rules=_native.Rules,
    move=_native.Move,
    bots=(
        _native.RandomBot,
        _native.GreedyBot,
        _native.PlayoutBot,
        _native.IsmctsBot,
        _native.NetBot,
    ),
    selfplay_batch=_native.SelfPlayBatch,
    record_format="indigo-record/1",
    snapshot_format="indigo-snapshot/1",
    openspiel_name="python_indigo",
    openspiel="indigo.envs.openspiel",
    python_bots=True,
    default_rules=_native.Rules.indigo,
    table_rules=_hook("indigo.table:demo_rules"),
    simulate=_native.simulate,
    self_play=_native.self_play,
    make_bot=_native.make_bot,
    game_svg=_hook("indigo.render.svg:game_svg"),
    demo=_hook("indigo.play:demo"),
    terminal_play=_hook("indigo.play:TerminalPlay"),
    web="indigo.web.views",
    samples="indigo.samples",
    engine_rules=_hook("indigo.engine:indigo_rules"),
    engine_options="indigo players=2|3|4 hand_size=1|2 gates=shared|exclusive "
    "tie_break=most-gems|shared open_hands=false|true theme=indigo|butterfly-garden",
    c_prefix="indigo_game",
    observation_size=_native.OBSERVATION_SIZE,
    observation_high=float(sum(_native.TILE_COUNTS)),
    action_count=_native.ACTION_COUNT,
    action_list=None,
    game_text=_hook("indigo.render.terminal:env_text"),
    move_log=_hook("indigo.narration:move_log"),
    pettingzoo="indigo.envs.indigo_v0",
    gymnasium_id="indigo/Indigo-v0",
)
"""Indigo (and its re-theme Butterfly Garden): :mod:`indigo`."""

QUEENS_GARDEN: Final[GameEntry[_garden.Game, _garden.Rules, _garden.Move]] = GameEntry(
    name="queens-garden",
    title="Azul: Queen's Garden",
    module="indigo.queens_garden",
    game=_garden.Game,
    rules=_garden.Rules,
    move=_garden.Move,
    bots=(_garden.Bot,),
    selfplay_batch=_garden.SelfPlayBatch,
    record_format=_garden.RECORD_FORMAT,
    snapshot_format=_garden.SNAPSHOT_FORMAT,
    openspiel_name="python_queens_garden",
    openspiel="indigo.queens_garden.openspiel",
    python_bots=False,
    default_rules=_garden.Rules,
    table_rules=_hook("indigo.queens_garden:table_rules"),
    simulate=_hook("indigo.queens_garden:simulate"),
    self_play=_garden.self_play,
    make_bot=_garden.make_bot,
    game_svg=_hook("indigo.queens_garden.svg:game_svg"),
    demo=_hook("indigo.queens_garden.play:demo"),
    terminal_play=_hook("indigo.queens_garden.play:terminal_play"),
    web="indigo.queens_garden.web",
    samples="indigo.queens_garden.samples",
    engine_rules=_hook("indigo.engine:garden_rules"),
    engine_options="queens-garden players=2|3|4",
    c_prefix="indigo_garden",
    observation_size=_garden.OBSERVATION_SIZE,
    observation_high=1000.0,
    action_count=_garden.ACTION_COUNT,
    action_list=8192,
    game_text=_hook("indigo.queens_garden.terminal:env_text"),
    move_log=_hook("indigo.queens_garden.narration:move_log"),
    pettingzoo="indigo.envs.queens_garden_v0",
    gymnasium_id="indigo/QueensGarden-v0",
)
"""Azul: Queen's Garden: :mod:`indigo.queens_garden`."""

GAMES: Final[tuple[GameEntry[Any, Any, Any], ...]] = (INDIGO, QUEENS_GARDEN)
"""Every game, the default (Indigo) first."""


def titles() -> dict[str, str]:
    """Each game's :attr:`GameEntry.title` by its name (the web page's headings)."""
    return {entry.name: entry.title for entry in GAMES}


def _names() -> str:
    return " or ".join(f'"{entry.name}"' for entry in GAMES)


def find_game(key: object) -> GameEntry[Any, Any, Any]:
    """The entry of the game ``key`` names or belongs to: a name (``"queens-garden"``), a
    record's or snapshot's ``format`` string, a record or snapshot (a mapping, by its
    ``format``), or an object of one of the game's classes (a game, rules, move, native bot
    or native self-play batch). Anything else raises :class:`~indigo.IndigoError` (a
    ``ValueError``) naming the games."""
    if isinstance(key, str):
        for entry in GAMES:
            if key in (entry.name, entry.record_format, entry.snapshot_format):
                return entry
        raise IndigoError(f"unknown game {key!r}: expected {_names()}")
    if isinstance(key, Mapping):
        named = key.get("format")
        for entry in GAMES:
            if named in (entry.record_format, entry.snapshot_format):
                return entry
        formats = ", ".join(f"{e.record_format}, {e.snapshot_format}" for e in GAMES)
        raise IndigoError(f"format must be one of {formats}, not {named!r}")
    for entry in GAMES:
        classes = (entry.game, entry.rules, entry.move, *entry.bots, entry.selfplay_batch)
        if isinstance(key, classes):
            return entry
    raise IndigoError(f"{type(key).__name__} is not of a game: expected one of {_names()}")


def record_game(record: Mapping[str, Any]) -> GameEntry[Any, Any, Any]:
    """The game whose reader reads a parsed ``record``: the game its ``format`` names, else
    the first of :data:`GAMES` (Indigo), whose reader then says what is wrong with it."""
    try:
        return find_game(record)
    except IndigoError:
        return GAMES[0]

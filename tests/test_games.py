"""The registry of games (``indigo.games``): what ``find_game`` maps to each entry, and that no
module outside the registry and the games' own packages chooses a game by its name or class."""

from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path
from typing import Any

import pytest

import indigo
from indigo import IndigoError
from indigo import queens_garden as qg
from indigo.games import GAMES, INDIGO, QUEENS_GARDEN, GameEntry, find_game, record_game

PACKAGE = Path(indigo.__file__).parent
ALLOWED = (
    {PACKAGE / "games.py"}
    | {
        path
        for entry in GAMES
        if entry.module != "indigo"  # Indigo's modules are the package's top level
        for path in (PACKAGE / Path(*entry.module.split(".")[1:])).rglob("*.py")
    }
)
"""The registry and the games' own packages: the only places that may name a game."""


def test_the_names_are_the_cli_s() -> None:
    assert [e.name for e in GAMES] == ["indigo", "queens-garden"]
    assert [e.title for e in GAMES] == ["Indigo", "Azul: Queen's Garden"]
    assert [importlib.import_module(e.module) for e in GAMES] == [indigo, qg]


@pytest.mark.parametrize("entry", GAMES, ids=lambda e: e.name)
def test_find_game_maps_every_key_to_its_entry(entry: GameEntry[Any, Any, Any]) -> None:
    game = entry.game(entry.default_rules(3), seed=5)
    assert game.rules.players == 3
    record = game.to_record()
    bot = entry.make_bot("random", seed=1)
    keys: list[object] = [
        entry.name,
        entry.record_format,
        entry.snapshot_format,
        game,
        game.rules,
        game.legal_moves[0],
        bot,
        record,
        game.snapshot(),
    ]
    assert all(find_game(key) is entry for key in keys)
    assert record["format"] == entry.record_format
    assert game.snapshot()["format"] == entry.snapshot_format
    assert record_game(record) is entry


@pytest.mark.parametrize("key", ["chess", "Indigo", "", "indigo-selfplay/1"])
def test_an_unknown_name_names_the_games(key: str) -> None:
    with pytest.raises(IndigoError, match='expected "indigo" or "queens-garden"'):
        find_game(key)


@pytest.mark.parametrize("key", [None, 3, object(), [1]])
def test_an_object_of_no_game_is_refused(key: object) -> None:
    with pytest.raises(ValueError, match="is not of a game"):
        find_game(key)


def test_a_record_of_no_game_names_the_formats() -> None:
    with pytest.raises(IndigoError, match="queens-garden-record/1"):
        find_game({"format": "chess-record/1"})
    # Read as Indigo's, whose reader says what is wrong.
    assert record_game({"format": "chess-record/1"}) is INDIGO


def test_the_default_rules_and_bots_are_each_game_s() -> None:
    assert INDIGO.default_rules(2) == indigo.Rules.indigo(2)
    assert QUEENS_GARDEN.default_rules(4) == qg.Rules(4)
    assert QUEENS_GARDEN.table_rules(3, "butterfly-garden", 2, "exclusive") == qg.Rules(3)
    assert isinstance(QUEENS_GARDEN.make_bot("greedy", seed=0), qg.Bot)


@pytest.mark.parametrize("entry", GAMES, ids=lambda e: e.name)
def test_the_rules_defaults_shown_are_the_core_s(entry: GameEntry[Any, Any, Any]) -> None:
    """The core crate decides what rules given nothing are (the binding passes what it is
    given): the defaults the signature shows are what ``Rules()`` and its presets get, and
    ``Rules()`` is the crate's default (a game of the batch given no rules)."""
    shown = {
        name: p.default
        for name, p in inspect.signature(entry.rules).parameters.items()
        if p.default is not None
    }
    assert "players" in shown
    rules = entry.rules()
    for name, default in shown.items():
        assert getattr(rules, name) == default, name
    for name in ("indigo", "tactical", "butterfly_garden"):
        preset = getattr(entry.rules, name, None)
        if preset is not None:
            assert inspect.signature(preset).parameters["players"].default == rules.players
            assert preset().players == rules.players
    first = entry.simulate(["random"] * rules.players, 1, seed=4)
    assert (
        first.checksum
        == entry.simulate(["random"] * rules.players, 1, seed=4, rules=rules).checksum
    )


def test_puct_defaults_shown_are_the_search_s() -> None:
    """``PuctBot``'s defaults are the search crate's ``PuctConfig::default()`` (no budget
    given: its 200 simulations, no time, one thread)."""
    shown = inspect.signature(indigo.PuctBot).parameters
    assert shown["simulations"].default is None
    assert shown["time"].default is None
    assert shown["threads"].default == 1
    bot = indigo.PuctBot("rollout")
    assert bot.spec == (
        f"puct:200,batch={shown['batch_size'].default},c={shown['c_puct'].default},rollout"
    )
    assert shown["dirichlet_fraction"].default == 0.0
    assert shown["temperature"].default == 0.0


@pytest.mark.parametrize("entry", GAMES, ids=lambda e: e.name)
def test_a_simulation_names_its_game_as_the_registry(entry: GameEntry[Any, Any, Any]) -> None:
    """``Simulation.game`` is the game crate's name, which is the entry's; a game without a
    pile refuses ``pile`` without naming another game."""
    simulation = entry.simulate(["random", "random"], 2, rules=entry.default_rules(2), seed=1)
    assert simulation.game == entry.name
    if simulation.deal is None:
        with pytest.raises(IndigoError, match=rf"this game \({entry.name}\) has no pile"):
            simulation.pile(0)
    else:
        assert len(simulation.pile(0)) > 0


def test_vector_games_default_to_the_registry_s_first_game() -> None:
    """Without rules, ``VectorGames`` plays the registry's default game (the binding has no
    default of its own)."""
    assert indigo.VectorGames(1).rules == GAMES[0].default_rules(2)
    with pytest.raises(TypeError):
        indigo._native.VectorGames(1)  # type: ignore[call-arg]


@pytest.mark.parametrize("entry", GAMES, ids=lambda e: e.name)
def test_every_surface_hook_loads(entry: GameEntry[Any, Any, Any]) -> None:
    """Each hook names a module and function that exist: the web views and samples offer the
    functions their callers use, and the SVG hook draws the game."""
    views = entry.load("web")
    for name in ("rules_from_body", "view_json", "state_json", "play_json", "game_at", "theme"):
        assert callable(getattr(views, name)), name
    samples = entry.load("samples")
    for name in ("schema", "samples_table", "to_batch", "play", "manifest"):
        assert callable(getattr(samples, name)), name
    assert samples.schema().metadata[b"format"].decode() == samples.FORMAT
    game = entry.game(entry.default_rules(2), seed=1)
    assert entry.game_svg(game).startswith("<svg")
    assert views.theme(game)


def _game_classes() -> set[type]:
    """The classes whose objects tell a surface which game it serves: each game's ``Game``,
    ``Rules`` and self-play batch (a ``Move`` or a bot is tested for its kind: a move or an
    action number, an ISMCTS bot or another, within one game)."""
    return {cls for e in GAMES for cls in (e.game, e.rules, e.selfplay_batch)}


def _bound_names(tree: ast.Module) -> dict[str, object]:
    """The module's imported names, resolved to what they are bound to."""
    names: dict[str, object] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    names[alias.asname] = importlib.import_module(alias.name)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if not node.module.startswith("indigo"):
                continue
            module = importlib.import_module(node.module)
            for alias in node.names:
                bound = vars(module).get(alias.name)  # not getattr: no deprecation hooks
                if bound is None:  # a submodule, or a name only type checkers see
                    try:
                        bound = importlib.import_module(f"{node.module}.{alias.name}")
                    except ImportError:
                        continue
                names[alias.asname or alias.name] = bound
    return names


def _resolve(node: ast.expr, names: dict[str, object]) -> object:
    if isinstance(node, ast.Name):
        return names.get(node.id)
    if isinstance(node, ast.Attribute):
        owner = _resolve(node.value, names)
        return None if owner is None else vars(owner).get(node.attr)
    return None


def _game_switches(path: Path) -> list[str]:
    """Each place in ``path`` that compares with a game's name or tests a game's class."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    path = path.relative_to(PACKAGE.parent) if path.is_relative_to(PACKAGE.parent) else path
    game_names = {e.name for e in GAMES}
    classes = _game_classes()
    names = _bound_names(tree)
    found: list[str] = []

    def names_a_game(node: ast.expr) -> bool:
        if isinstance(node, ast.Constant):
            return node.value in game_names
        if isinstance(node, ast.Tuple | ast.List | ast.Set):
            return any(names_a_game(e) for e in node.elts)
        return False

    for node in ast.walk(tree):
        where = f"{path}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.Compare) and any(
            names_a_game(n) for n in [node.left, *node.comparators]
        ):
            found.append(f"{where}: compares with a game's name")
        elif isinstance(node, ast.MatchValue) and names_a_game(node.value):
            found.append(f"{where}: matches a game's name")
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("isinstance", "issubclass")
            and len(node.args) == 2
        ):
            second = node.args[1]
            parts = second.elts if isinstance(second, ast.Tuple) else [second]
            for part in parts:
                for leaf in ast.walk(part):
                    if isinstance(leaf, ast.expr) and _resolve(leaf, names) in classes:
                        found.append(f"{where}: isinstance against {ast.unparse(leaf)}")
    return found


def test_no_module_outside_the_registry_chooses_a_game() -> None:
    """Every surface looks its game up in ``indigo.games``: outside it and the games' own
    packages, no comparison with a game's name and no isinstance against a game's class."""
    sources = sorted(set(PACKAGE.rglob("*.py")) - ALLOWED)
    assert PACKAGE / "web" / "app.py" in sources
    assert PACKAGE / "games.py" not in sources
    switches = [line for path in sources for line in _game_switches(path)]
    assert switches == []


def test_the_check_finds_a_switch(tmp_path: Path) -> None:
    """The check above fails on each kind of switch (so that its silence means something)."""
    source = tmp_path / "switch.py"
    source.write_text(
        "from indigo import queens_garden as qg\n"
        "from indigo._native import Rules\n"
        "def pick(game, name, rules):\n"
        "    if name == 'queens-garden' or name in ('indigo', 'x'):\n"
        "        return isinstance(game, qg.Game) or isinstance(rules, (int, Rules))\n"
    )
    found = _game_switches(source)
    assert len(found) == 4, found
    assert sum("isinstance" in f for f in found) == 2

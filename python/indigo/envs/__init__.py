"""Adapters to learning libraries, each behind an optional extra (docs/envs.md):

* ``indigo.envs.indigo_v0``: PettingZoo AEC environment (``indigo-tiles[pettingzoo]``);
* ``indigo.envs.gymnasium_env``: one learning seat against native bots, registered with
  Gymnasium as ``indigo/Indigo-v0`` when this package is imported (``indigo-tiles[gymnasium]``),
  whose ``vector_entry_point`` is ``indigo.envs.vector.make_vector_env``;
* ``indigo.envs.vector``: :class:`indigo.VectorGames` as a Gymnasium ``VectorEnv``;
* ``indigo.envs.openspiel``: registers the OpenSpiel game of every game of
  :data:`indigo.games.GAMES` on import: ``python_indigo``, and Azul: Queen's Garden's
  ``python_queens_garden`` (:mod:`indigo.queens_garden.openspiel`) (``indigo-tiles[openspiel]``).

* ``indigo.envs.queens_garden_v0`` and ``indigo/QueensGarden-v0``: the same for Azul: Queen's
  Garden (``indigo.envs.vector.QueensGardenVectorEnv`` its vector environment).

Importing this package needs none of them.
"""

from importlib.util import find_spec

GYMNASIUM_ID = "indigo/Indigo-v0"
GARDEN_GYMNASIUM_ID = "indigo/QueensGarden-v0"

# Each Gymnasium id with its single environment and vector entry point.
_ENTRY_POINTS = {
    GYMNASIUM_ID: ("IndigoEnv", "make_vector_env"),
    GARDEN_GYMNASIUM_ID: ("QueensGardenEnv", "make_garden_vector_env"),
}


def _register() -> None:
    """Register the ids with Gymnasium, if it is installed."""
    if find_spec("gymnasium") is None:
        return
    import gymnasium

    for env_id, (single, vector) in _ENTRY_POINTS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(
                id=env_id,
                entry_point=f"indigo.envs.gymnasium_env:{single}",
                vector_entry_point=f"indigo.envs.vector:{vector}",
            )


_register()

__all__ = ["GARDEN_GYMNASIUM_ID", "GYMNASIUM_ID"]

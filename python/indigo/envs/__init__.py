"""Adapters to learning libraries, each behind an optional extra (docs/envs.md):

* ``indigo.envs.indigo_v0``: PettingZoo AEC environment (``indigo-tiles[pettingzoo]``);
* ``indigo.envs.gymnasium_env``: one learning seat against native bots, registered with
  Gymnasium as ``indigo/Indigo-v0`` when this package is imported (``indigo-tiles[gymnasium]``),
  whose ``vector_entry_point`` is ``indigo.envs.vector.make_vector_env``;
* ``indigo.envs.vector``: :class:`indigo.VectorGames` as a Gymnasium ``VectorEnv``;
* ``indigo.envs.openspiel``: registers the OpenSpiel game of every game of
  :data:`indigo.games.GAMES` on import: ``python_indigo``, and Azul: Queen's Garden's
  ``python_queens_garden`` (:mod:`indigo.queens_garden.openspiel`) (``indigo-tiles[openspiel]``).

The PettingZoo, Gymnasium and vector adapters play Indigo.

Importing this package needs none of them.
"""

from importlib.util import find_spec

GYMNASIUM_ID = "indigo/Indigo-v0"


def _register() -> None:
    """Register :data:`GYMNASIUM_ID` with Gymnasium, if it is installed."""
    if find_spec("gymnasium") is None:
        return
    import gymnasium

    if GYMNASIUM_ID not in gymnasium.registry:
        gymnasium.register(
            id=GYMNASIUM_ID,
            entry_point="indigo.envs.gymnasium_env:IndigoEnv",
            vector_entry_point="indigo.envs.vector:make_vector_env",
        )


_register()

__all__ = ["GYMNASIUM_ID"]

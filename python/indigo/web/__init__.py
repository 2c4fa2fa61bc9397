"""The web app (``indigo serve``): see :mod:`indigo.web.app` and ``docs/web.md``."""

"""``indigo serve [--host H] [--port P] [limits]``: the web app (needs the ``web`` extra)."""

from __future__ import annotations

import argparse
import socket
from typing import Any

from indigo._extras import install_hint
from indigo.cli import _common
from indigo.cli._common import CliError
from indigo.web.limits import add_limit_options, limits_from_args


def add_parser(sub: Any) -> None:
    serve = sub.add_parser("serve", help="play in the browser: start the local web app")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=_common.port, default=8000)
    add_limit_options(serve)
    serve.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        from indigo.web.app import serve
    except ImportError as exc:
        raise CliError(
            f"indigo serve needs the 'web' extra ({exc}): {install_hint('web')}"
        ) from None
    _check_listen(args.host, args.port)
    return serve(args.host, args.port, limits_from_args(args))


def _check_listen(host: str, port: int) -> None:
    """Raises :class:`CliError` unless ``host`` resolves and ``port`` is free on it (the
    server, once started, reports these only in its log)."""
    try:
        family, kind, protocol, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
        with socket.socket(family, kind, protocol) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(address)
    except OSError as exc:
        raise CliError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    except UnicodeError as exc:  # a host name the IDNA codec refuses
        raise CliError(f"cannot listen on {host}:{port}: {exc}") from None

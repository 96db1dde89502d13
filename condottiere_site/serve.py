"""Daphne on uvloop's event loop: `python -m condottiere_site.serve` takes Daphne's own arguments.

Daphne makes its event loop when `daphne.server` is first imported (it installs Twisted's asyncio
reactor on it then), so the loop's kind must be chosen before that import: `use_uvloop()` sets the
policy, and only then is Daphne's command line imported. Where uvloop has no build (Windows), the
site serves on asyncio's own loop. Why: the fan-out of one game's frames to many sockets is the
event loop's work; on uvloop Daphne spends less CPU on it and delivers sooner (docs/operations.md,
"Daphne's event loop").
"""

import asyncio
import sys
import warnings


def use_uvloop() -> None:
    """Make uvloop the policy of every new event loop, where uvloop is installed."""
    try:
        import uvloop
    except ImportError:
        return
    # Python 3.14 deprecates loop policies, but Daphne calls asyncio.new_event_loop() itself:
    # the policy is the one way to choose its loop until Daphne takes a loop factory.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())


def loop_name(loop: asyncio.AbstractEventLoop) -> str:
    return f"{type(loop).__module__}.{type(loop).__qualname__}"


def main(argv: list[str] | None = None) -> None:
    use_uvloop()
    import daphne.server  # makes Daphne's loop under the policy just set
    from daphne.cli import CommandLineInterface

    # Said once at start, so that an operator (and the tests) can see which loop serves.
    print(f"Daphne's event loop: {loop_name(daphne.server.twisted_loop)}", file=sys.stderr)
    CommandLineInterface().run(sys.argv[1:] if argv is None else argv)


if __name__ == "__main__":
    main()

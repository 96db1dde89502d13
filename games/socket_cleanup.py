"""A socket whose connect fails part-way still gives back what it took.

Channels calls a consumer's `disconnect` only after its connect returned: a connect that raises
part-way (a database error while sending the first state, say) ends the consumer at once. What it
had taken by then would stay behind: its Presence row would count it as connected until the
sweep's purge (minutes), its place under the socket caps would be held until it lapses, its
groups kept until they expire.
"""

import contextlib

# The close code Daphne gives a socket whose application raised (an internal error).
CLOSE_INTERNAL_ERROR = 1011


class ReleasesOnFailedConnect:
    """Mixed into a consumer before Channels' class: on an error in `connect`, runs `disconnect`
    (which must cope with a connect stopped anywhere), then lets the error go on to Daphne, which
    logs it and closes the socket."""

    async def websocket_connect(self, message):
        try:
            await super().websocket_connect(message)
        except Exception:
            # The connect's error is the one to report; a second one while releasing would hide it.
            with contextlib.suppress(Exception):
                await self.disconnect(CLOSE_INTERNAL_ERROR)
            raise

"""Event streams on a real Daphne (production profile): a stream holds no database connection
while it waits, gives back everything when it closes, and the streams of a token and of an
account are capped (BOT_API_STREAMS_PER_TOKEN, BOT_API_STREAMS_PER_ACCOUNT) across processes."""

import asyncio
import time

import aiohttp
import pytest

POOL = 3  # DATABASE_POOL_SIZE of the Daphne under test
TIMEOUT = aiohttp.ClientTimeout(total=60)
# Pages that each need a database connection: the history list, and a token's account.
PAGES = ("/history/", "/api/bot/account")


async def open_stream(http: aiohttp.ClientSession, url: str, secret: str):
    """A stream's response, with its first line read if it was accepted."""
    response = await http.get(
        url + "/api/bot/stream/event", headers={"Authorization": f"Bearer {secret}"}
    )
    if response.status == 200:
        assert await asyncio.wait_for(response.content.readline(), 30) == b"\n"
    return response


async def page_statuses(http: aiohttp.ClientSession, url: str, secret: str, rounds: int):
    """Every page `rounds` times, all at once: their statuses (the slowest time is printed)."""

    async def status(path: str) -> tuple[int, float]:
        started = time.monotonic()
        async with http.get(url + path, headers={"Authorization": f"Bearer {secret}"}) as answer:
            await answer.read()
            return answer.status, time.monotonic() - started

    answers = await asyncio.gather(*[status(path) for path in PAGES * rounds])
    print(f"{len(answers)} pages at once, the slowest in {max(s for _, s in answers):.3f} s")
    return [code for code, _ in answers]


async def streams_then_pages(url: str, secret: str, streams: int):
    """Open `streams` streams, load pages while they are open, close them, load pages again."""
    async with (
        aiohttp.ClientSession(timeout=TIMEOUT) as http,
        aiohttp.ClientSession(timeout=TIMEOUT) as pages,
    ):
        opened = await asyncio.gather(*[open_stream(http, url, secret) for _ in range(streams)])
        assert [response.status for response in opened] == [200] * streams
        while_open = await page_statuses(pages, url, secret, POOL)
        for response in opened:
            response.close()
        await asyncio.sleep(2)  # the server hears of each disconnection
        after_close = await page_statuses(pages, url, secret, POOL)
    return while_open, after_close


@pytest.mark.slow
@pytest.mark.production
@pytest.mark.django_db(transaction=True)
def test_streams_beyond_the_pool_size_leave_pages_answering(start_daphne, make_bot, make_token):
    secret = make_token(make_bot())
    streams = 2 * POOL
    url = start_daphne(
        {
            "DATABASE_POOL_SIZE": str(POOL),
            "BOT_API_STREAMS_PER_TOKEN": str(streams),
            "BOT_API_STREAMS_PER_ACCOUNT": str(streams),
            "BOT_API_STREAMS_PER_MINUTE": "100",  # not what this test is about
        }
    )
    while_open, after_close = asyncio.run(streams_then_pages(url, secret, streams))
    assert while_open == [200] * len(while_open), "pages failed while the streams were open"
    assert after_close == [200] * len(after_close), "pages failed after the streams closed"


async def statuses_and_codes(responses) -> list[tuple[int, str | None]]:
    found = []
    for response in responses:
        code = None if response.status == 200 else (await response.json())["error"]
        found.append((response.status, code))
    return found


async def over_the_caps(url: str, first: str, second: str):
    """Four streams of one token at once, then two of another token of the same account, then
    one more after a stream closed."""
    async with aiohttp.ClientSession(timeout=TIMEOUT) as http:
        of_first = await asyncio.gather(*[open_stream(http, url, first) for _ in range(4)])
        of_second = await asyncio.gather(*[open_stream(http, url, second) for _ in range(2)])
        found = await statuses_and_codes(of_first), await statuses_and_codes(of_second)
        next(response for response in of_first if response.status == 200).close()
        await asyncio.sleep(2)  # the server hears of the disconnection
        again = await open_stream(http, url, first)
        for response in [*of_first, *of_second, again]:
            response.close()
    return *found, again.status


@pytest.mark.slow
@pytest.mark.production
@pytest.mark.django_db(transaction=True)
def test_streams_of_a_token_and_of_an_account_are_capped(start_daphne, make_bot, make_token):
    bot = make_bot()
    first, second = make_token(bot), make_token(bot)
    caps = {"BOT_API_STREAMS_PER_TOKEN": "2", "BOT_API_STREAMS_PER_ACCOUNT": "3"}
    url = start_daphne({**caps, "BOT_API_STREAMS_PER_MINUTE": "100"})
    of_first, of_second, again = asyncio.run(over_the_caps(url, first, second))
    refused = (429, "too_many_streams")
    assert sorted(of_first) == [(200, None)] * 2 + [refused] * 2
    assert sorted(of_second) == [(200, None), refused]  # the account's third, then over
    assert again == 200, "a closed stream gave its place back"


async def open_two_then(url: str, secret: str, after) -> list[int]:
    """Two streams open at once, then `after()` (awaited) while they are open; their statuses."""
    async with aiohttp.ClientSession(timeout=TIMEOUT) as http:
        opened = await asyncio.gather(*[open_stream(http, url, secret) for _ in range(2)])
        await after()
        for response in opened:
            response.close()
    return [response.status for response in opened]


@pytest.mark.slow
@pytest.mark.production
@pytest.mark.django_db(transaction=True)
def test_a_server_stopping_gives_back_its_streams_places(start_daphne, make_bot, make_token):
    """Daphne stopped (SIGTERM) with a token's every stream open: another Daphne serves that
    many streams of the token at once, long before a crashed process's places would lapse."""
    secret = make_token(make_bot())
    env = {"BOT_API_STREAMS_PER_TOKEN": "2", "BOT_API_STREAMS_PER_MINUTE": "100"}
    first = start_daphne(env)
    second = start_daphne(env)

    async def stop_the_first():
        await asyncio.to_thread(start_daphne.stop, first)

    async def nothing():
        pass

    assert asyncio.run(open_two_then(first, secret, stop_the_first)) == [200, 200]
    assert asyncio.run(open_two_then(second, secret, nothing)) == [200, 200]

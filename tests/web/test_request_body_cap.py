"""Request bodies are capped by the site itself (REQUEST_BODY_MAX_BYTES), whatever stands in front.

Daphne accepted bodies of any size: it read the whole body before the application saw the request,
and then queued all of it in memory for Django. Against a real Daphne: a body declared over the
cap is answered 413 before a byte of it is sent; a chunked body is cut off once past the cap;
a normal upload (a record file of almost 2 MB) still reaches its form; Daphne's memory stays put.
The middleware that holds the cap under any other server is tested on the ASGI application.
"""

import contextlib
import http.client
import re
import select
import socket
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from asgiref.testing import ApplicationCommunicator

from condottiere_site.asgi import application
from tests.botapi.daphne_site import start_daphne  # noqa: F401 - the fixture
from tests.web.test_faults import session_of

CAP = 3 * 1024 * 1024
HUGE = 100 * 1024 * 1024
CHUNK = 64 * 1024
ANSWER_SECONDS = 10  # generous: the machine may be loaded; the 413 comes before any body byte
# Daphne's resident memory may grow this much over the test (libraries warming up), not by the
# 100 MB it used to queue.
MEMORY_GROWTH_ALLOWED = 30 * 1024 * 1024


def address(url: str) -> tuple[str, int]:
    parts = urlsplit(url)
    return parts.hostname, parts.port


def resident_bytes(port: int) -> int:
    """The resident memory of the Daphne process listening on `port` (found by its command)."""
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        with contextlib.suppress(OSError):
            argv = cmdline.read_bytes().split(b"\0")
            if any(b"daphne" in arg for arg in argv) and str(port).encode() in argv:
                status = (cmdline.parent / "status").read_text()
                return int(re.search(r"VmRSS:\s+(\d+) kB", status).group(1)) * 1024
    raise AssertionError(f"no Daphne process on port {port}")


def read_answer(sock: socket.socket, timeout: float) -> bytes:
    """What the server sent until it closed the connection or `timeout` passed."""
    sock.settimeout(timeout)
    answer = b""
    with contextlib.suppress(TimeoutError, ConnectionResetError):
        while chunk := sock.recv(65536):
            answer += chunk
    return answer


def headers(lines: list[str]) -> bytes:
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def status_of(answer: bytes) -> int:
    return int(answer.split(b" ", 2)[1])


@pytest.mark.slow
def test_daphne_refuses_a_body_past_the_cap_before_reading_it(start_daphne):  # noqa: F811
    url = start_daphne(env={"REQUEST_BODY_MAX_BYTES": str(CAP)})
    host, port = address(url)
    memory_before = resident_bytes(port)

    # Declared: 100 MB. The 413 comes at once, before a byte of the body is sent.
    with socket.create_connection((host, port)) as sock:
        started = time.monotonic()
        sock.sendall(
            headers(
                [
                    "POST /games/import/ HTTP/1.1",
                    f"Host: {host}",
                    f"Content-Length: {HUGE}",
                    "Content-Type: application/octet-stream",
                ]
            )
        )
        answer = read_answer(sock, ANSWER_SECONDS)
        waited = time.monotonic() - started
    assert answer and status_of(answer) == 413, answer[:200]
    assert b"at most 3,145,728 bytes" in answer
    print(f"\n413 for a declared 100 MB body after {waited * 1000:.0f} ms")

    # Chunked, no length declared: cut off once past the cap, the rest never read.
    sent, answer = send_chunked_until_refused(host, port)
    assert answer and status_of(answer) == 413, answer[:200]
    assert sent < HUGE // 2, f"the server read {sent:,} bytes of a chunked body"
    print(f"chunked body cut off after {sent:,} bytes sent (cap {CAP:,})")

    growth = resident_bytes(port) - memory_before
    print(f"Daphne's resident memory grew {growth / 2**20:.1f} MB")
    assert growth < MEMORY_GROWTH_ALLOWED


def send_chunked_until_refused(host: str, port: int) -> tuple[int, bytes]:
    """Send up to HUGE bytes in chunks, watching for an answer between chunks: (bytes sent when
    the server answered or closed, its answer)."""
    chunk = f"{CHUNK:x}\r\n".encode() + b"x" * CHUNK + b"\r\n"
    sent = 0
    with socket.create_connection((host, port)) as sock:
        sock.sendall(
            headers(
                [
                    "POST /games/import/ HTTP/1.1",
                    f"Host: {host}",
                    "Transfer-Encoding: chunked",
                    "Content-Type: application/octet-stream",
                ]
            )
        )
        try:
            while sent < HUGE:
                if select.select([sock], [], [], 0)[0]:
                    break  # the server answered (or closed): stop sending
                sock.sendall(chunk)
                sent += CHUNK
            else:
                sock.sendall(b"0\r\n\r\n")
        except (BrokenPipeError, ConnectionResetError):
            pass
        return sent, read_answer(sock, ANSWER_SECONDS)


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_normal_upload_still_reaches_its_form_through_daphne(start_daphne, make_user):  # noqa: F811
    """A record file of almost 2 MB (not a record: the form says so) is read by the form."""
    url = start_daphne(env={"REQUEST_BODY_MAX_BYTES": str(CAP)})
    host, port = address(url)
    session = session_of(make_user("uploader"))
    connection = http.client.HTTPConnection(host, port, timeout=60)
    connection.request("GET", "/games/import/", headers={"Cookie": f"sessionid={session}"})
    page = connection.getresponse()
    assert page.status == 200
    csrf = re.search(r"csrftoken=([^;]+)", page.getheader("Set-Cookie")).group(1)
    page.read()

    boundary = "----condottiere-test"
    upload = b"[" + b" " * (2 * 1024 * 1024 - 100) + b"]"
    body = (
        (
            f"--{boundary}\r\n"
            'Content-Disposition: form-data; name="csrfmiddlewaretoken"\r\n\r\n'
            f"{csrf}\r\n"
            f"--{boundary}\r\n"
            'Content-Disposition: form-data; name="file"; filename="record.json"\r\n'
            "Content-Type: application/json\r\n\r\n"
        ).encode()
        + upload
        + f"\r\n--{boundary}--\r\n".encode()
    )
    connection.request(
        "POST",
        "/games/import/",
        body=body,
        headers={
            "Cookie": f"sessionid={session}; csrftoken={csrf}",
            "Content-Type": f"multipart/form-data; boundary={boundary}",
            "Referer": url + "/games/import/",
        },
    )
    answer = connection.getresponse()
    text = answer.read().decode()
    assert answer.status in {200, 400}, (answer.status, text[:300])
    assert 'data-testid="import-form"' in text  # the form read the file and said what is wrong
    connection.close()


# --- The middleware, for servers that stream bodies -------------------------------------------


def http_scope(headers_list) -> dict:
    return {
        "type": "http",
        "method": "POST",
        "path": "/games/import/",
        "raw_path": b"/games/import/",
        "query_string": b"",
        "headers": headers_list,
        "client": ["203.0.113.9", 5000],
        "server": ["testserver", 80],
        "scheme": "http",
        "http_version": "1.1",
    }


async def response_of(communicator) -> tuple[int, bytes]:
    start = await communicator.receive_output(timeout=ANSWER_SECONDS)
    body = await communicator.receive_output(timeout=ANSWER_SECONDS)
    return start["status"], body["body"]


@pytest.mark.django_db(transaction=True)
async def test_the_middleware_refuses_a_declared_length_past_the_cap_unread(settings):
    settings.REQUEST_BODY_MAX_BYTES = 1000
    scope = http_scope([(b"host", b"testserver"), (b"content-length", b"5000")])
    communicator = ApplicationCommunicator(application, scope)
    status, body = await response_of(communicator)  # no body sent at all
    assert status == 413 and b"at most 1,000 bytes" in body


@pytest.mark.django_db(transaction=True)
async def test_the_middleware_cuts_off_a_streamed_body_past_the_cap(settings):
    settings.REQUEST_BODY_MAX_BYTES = 1000
    communicator = ApplicationCommunicator(application, http_scope([(b"host", b"testserver")]))
    for _ in range(3):
        await communicator.send_input(
            {"type": "http.request", "body": b"x" * 400, "more_body": True}
        )
    status, body = await response_of(communicator)
    assert status == 413 and b"at most 1,000 bytes" in body

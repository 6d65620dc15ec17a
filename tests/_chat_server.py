"""A chat-completions endpoint on 127.0.0.1 for tests (threading http.server).

The default responder answers the enrichment prompt with valid JSON built
from the passage. A passage can ask for misbehaviour with a marker in its text:

- ``[[429]]``: first request answers 429 with ``Retry-After: 0``, then success.
- ``[[500]]``: always HTTP 500.
- ``[[malformed]]``: always a chat answer whose content is not JSON.
- ``[[malformed-once]]``: not JSON the first time, then valid.
- ``[[badbody]]``: an HTTP 200 whose body is not JSON at all.
- ``[[hang]]``: no answer for ``hang_seconds`` (bounded; released on stop).

``/v1/messages`` answers like Anthropic's Messages API with the same content.
"""

from __future__ import annotations

import json
import re
import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

_PASSAGE = re.compile(r"<<<\n(.*?)\n>>>", re.DOTALL)


@dataclass
class Reply:
    status: int = 200
    content: str | None = None  # the assistant's text (wrapped in a chat-completions body)
    body: bytes | None = None  # a raw body instead
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0


def passage_of(prompt: str) -> str:
    m = _PASSAGE.search(prompt)
    return m.group(1) if m else prompt


def good_answer(prompt: str) -> str:
    """A valid enrichment answer for the passage in ``prompt`` (only the keys the prompt asks for)."""
    passage = passage_of(prompt)
    first = passage.split(".")[0].strip()
    words = [w.strip(".,;:") for w in passage.split() if len(w) > 6][:3]
    answer: dict[str, Any] = {}
    if '"summary"' in prompt:
        answer["summary"] = f"Summary: {first}."
    if '"questions"' in prompt:
        answer["questions"] = [f"1. What about {w}?" for w in words] or ["What is this?"]
    if '"metadata"' in prompt:
        answer["metadata"] = {
            "organizations": ["Zephyrine Holdings"],
            "people": [],
            "places": ["Lisbon"],
            "categories": ["finance"],
            "key_facts": [first],
            "keywords": ["quokka synonym"],
        }
    return json.dumps(answer)


class ChatServer:
    """Start with ``with ChatServer() as server:``; ``server.url`` is the API root (``.../v1``)."""

    def __init__(self, responder: Callable[[dict[str, Any], ChatServer], Reply] | None = None) -> None:
        self.responder = responder or default_responder
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.attempts: Counter[str] = Counter()  # per passage
        self.hang_seconds = 3.0
        self.stop_event = threading.Event()
        self.lock = threading.Lock()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                payload = json.loads(self.rfile.read(length) or b"{}")
                with server.lock:
                    server.requests.append(payload)
                    server.headers.append({k.lower(): v for k, v in self.headers.items()})
                reply = server.responder(payload, server)
                if reply.delay:
                    server.stop_event.wait(min(reply.delay, 10.0))
                    if server.stop_event.is_set():
                        return
                if reply.body is not None:
                    body = reply.body
                elif self.path.endswith("/messages"):
                    body = json.dumps(
                        {
                            "id": "msg_1",
                            "type": "message",
                            "role": "assistant",
                            "model": payload.get("model", "m"),
                            "content": [{"type": "text", "text": reply.content or ""}],
                            "stop_reason": "end_turn",
                            "stop_sequence": None,
                            "usage": {"input_tokens": 11, "output_tokens": 7},
                        }
                        if reply.status == 200
                        else {"type": "error", "error": {"type": "api_error", "message": "scripted failure"}}
                    ).encode()
                else:
                    body = json.dumps(
                        {
                            "id": "chatcmpl-1",
                            "object": "chat.completion",
                            "choices": [
                                {"index": 0, "message": {"role": "assistant", "content": reply.content}}
                            ],
                            "usage": {"prompt_tokens": 11, "completion_tokens": 7},
                        }
                        if reply.status == 200
                        else {"error": {"message": "scripted failure"}}
                    ).encode()
                try:
                    self.send_response(reply.status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(body)))
                    for k, v in reply.headers.items():
                        self.send_header(k, v)
                    self.end_headers()
                    self.wfile.write(body)
                except OSError:  # the client gave up (timeout): nothing to do
                    pass

        class Server(ThreadingHTTPServer):
            daemon_threads = True

            def handle_error(self, request: Any, client_address: Any) -> None:
                pass

        self._httpd = Server(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05})

    @property
    def url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}/v1"

    @property
    def root(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}"

    def prompts(self) -> list[str]:
        out = []
        for r in self.requests:
            if "messages" in r:
                out.append(r["messages"][-1]["content"])
        return out

    def __enter__(self) -> ChatServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop_event.set()
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)


def default_responder(payload: dict[str, Any], server: ChatServer) -> Reply:
    prompt = payload["messages"][-1]["content"]
    passage = passage_of(prompt)
    with server.lock:
        server.attempts[passage] += 1
        n = server.attempts[passage]
    if "[[429]]" in passage and n == 1:
        return Reply(429, headers={"Retry-After": "0"})
    if "[[500]]" in passage:
        return Reply(500)
    if "[[malformed]]" in passage or ("[[malformed-once]]" in passage and n == 1):
        return Reply(content="Sure! Here is the summary you asked for: it is about things.")
    if "[[badbody]]" in passage:
        return Reply(body=b"<html>gateway says hi</html>")
    if "[[hang]]" in passage:
        return Reply(content=good_answer(prompt), delay=server.hang_seconds)
    return Reply(content=good_answer(prompt))

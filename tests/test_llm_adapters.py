"""LLM adapters against a real HTTP server on 127.0.0.1."""

from __future__ import annotations

import json
import pickle
import socket

import pytest

from _chat_server import ChatServer, Reply
from sectionrag.enrich import AnthropicLLM, LLMError, LLMResponseError, OpenAICompatibleLLM
from sectionrag.errors import ConfigError, EnrichmentError, MissingDependencyError
from sectionrag.protocols import LLM

SECRET = "sk-test-0123456789-do-not-log"


def scripted(*replies: Reply) -> ChatServer:
    queue = list(replies)

    def responder(payload: dict, server: ChatServer) -> Reply:
        return queue.pop(0) if queue else Reply(content="fine")

    return ChatServer(responder)


def test_completes_and_sends_the_openai_payload() -> None:
    with scripted(Reply(content="hello there")) as server:
        llm = OpenAICompatibleLLM(server.url, "tiny-model", system="be brief", json_mode=True)
        assert isinstance(llm, LLM)
        assert llm.complete("Say hello", max_tokens=20) == "hello there"
    payload = server.requests[0]
    assert payload["model"] == "tiny-model"
    assert payload["max_tokens"] == 20
    assert payload["temperature"] == 0.0
    assert payload["messages"] == [
        {"role": "system", "content": "be brief"},
        {"role": "user", "content": "Say hello"},
    ]
    assert payload["response_format"] == {"type": "json_object"}
    assert llm.usage == {"prompt_tokens": 11, "completion_tokens": 7, "requests": 1}


def test_api_key_from_environment_only_and_never_shown(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SECTIONRAG_TEST_KEY", SECRET)
    with scripted(Reply(content="a"), Reply(content="b")) as server:
        llm = OpenAICompatibleLLM(server.url, "m", api_key_env="SECTIONRAG_TEST_KEY")
        llm.complete("x", max_tokens=16)
        monkeypatch.delenv("SECTIONRAG_TEST_KEY")
        llm.complete("y", max_tokens=16)
    assert server.headers[0]["authorization"] == f"Bearer {SECRET}"
    assert "authorization" not in server.headers[1]
    for shown in (repr(llm), str(vars(llm)), pickle.dumps(llm).decode("latin-1")):
        assert SECRET not in shown
    assert "SECTIONRAG_TEST_KEY" in repr(llm)


def test_required_key_missing_is_a_config_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SECTIONRAG_TEST_KEY", raising=False)
    with pytest.raises(ConfigError, match="SECTIONRAG_TEST_KEY"):
        OpenAICompatibleLLM(
            "http://127.0.0.1:9/v1", "m", api_key_env="SECTIONRAG_TEST_KEY", require_api_key=True
        )


@pytest.mark.parametrize(
    ("reply", "retryable", "status"),
    [
        (Reply(429, headers={"Retry-After": "2"}), True, 429),
        (Reply(500), True, 500),
        (Reply(503), True, 503),
        (Reply(400), False, 400),
        (Reply(401), False, 401),
        (Reply(404), False, 404),
    ],
)
def test_http_errors_are_typed(reply: Reply, retryable: bool, status: int) -> None:
    with scripted(reply) as server:
        llm = OpenAICompatibleLLM(server.url, "m")
        with pytest.raises(LLMError) as info:
            llm.complete("x", max_tokens=16)
    err = info.value
    assert isinstance(err, EnrichmentError)
    assert (err.status, err.retryable) == (status, retryable)
    assert f"HTTP {status}" in str(err)
    if status == 429:
        assert err.retry_after == 2.0
    if status == 401:
        assert "API key" in str(err)


def test_unreadable_body_is_a_response_error() -> None:
    with scripted(Reply(body=b"<html>not json</html>")) as server:
        llm = OpenAICompatibleLLM(server.url, "m")
        with pytest.raises(LLMResponseError, match="not a chat-completions response"):
            llm.complete("x", max_tokens=16)


def test_timeout_is_retryable() -> None:
    with scripted(Reply(content="late", delay=3.0)) as server:
        llm = OpenAICompatibleLLM(server.url, "m", timeout=0.2)
        with pytest.raises(LLMError, match=r"no response within 0\.2 s") as info:
            llm.complete("x", max_tokens=16)
    assert info.value.retryable


def test_refused_connection_is_retryable() -> None:
    with socket.socket() as s:  # a port on 127.0.0.1 that nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    llm = OpenAICompatibleLLM(f"http://127.0.0.1:{port}/v1", "m", timeout=2)
    with pytest.raises(LLMError, match="cannot reach") as info:
        llm.complete("x", max_tokens=16)
    assert info.value.retryable


def test_bad_arguments() -> None:
    with pytest.raises(ConfigError, match="http"):
        OpenAICompatibleLLM("localhost:8000", "m")
    with pytest.raises(ConfigError, match="model"):
        OpenAICompatibleLLM("http://127.0.0.1:1/v1", "")
    with pytest.raises(ConfigError, match="timeout"):
        OpenAICompatibleLLM("http://127.0.0.1:1/v1", "m", timeout=0)
    with pytest.raises(TypeError):
        OpenAICompatibleLLM("http://127.0.0.1:1/v1", "m").complete(b"x", max_tokens=3)  # type: ignore[arg-type]


def test_anthropic_without_key_is_a_config_error(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("anthropic")
    monkeypatch.delenv("SECTIONRAG_TEST_KEY", raising=False)
    with pytest.raises(ConfigError, match="SECTIONRAG_TEST_KEY"):
        AnthropicLLM(api_key_env="SECTIONRAG_TEST_KEY")


def test_anthropic_missing_package_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    import builtins

    real_import = builtins.__import__

    def no_anthropic(name: str, *args: object, **kwargs: object) -> object:
        if name == "anthropic":
            raise ImportError("no anthropic here")
        return real_import(name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(builtins, "__import__", no_anthropic)
    with pytest.raises(MissingDependencyError, match=r"sectionrag\[anthropic\]"):
        AnthropicLLM()


def test_anthropic_sdk_against_local_server(monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("anthropic")
    monkeypatch.setenv("SECTIONRAG_TEST_KEY", SECRET)
    with scripted(
        Reply(content="claude says hi"), Reply(429, headers={"retry-after": "1"}), Reply(500)
    ) as server:
        llm = AnthropicLLM(
            "claude-test",
            api_key_env="SECTIONRAG_TEST_KEY",
            base_url=server.root,
            system="sys",
            temperature=0.0,
        )
        assert llm.complete("hello", max_tokens=32) == "claude says hi"
        with pytest.raises(LLMError) as rate:
            llm.complete("again", max_tokens=32)
        with pytest.raises(LLMError) as boom:
            llm.complete("again", max_tokens=32)
    assert (rate.value.status, rate.value.retryable, rate.value.retry_after) == (429, True, 1.0)
    assert (boom.value.status, boom.value.retryable) == (500, True)
    sent = server.requests[0]
    assert sent["model"] == "claude-test" and sent["max_tokens"] == 32 and sent["system"] == "sys"
    assert sent["temperature"] == 0.0
    assert sent["messages"] == [{"role": "user", "content": "hello"}]
    sent_headers = server.headers[0]
    assert SECRET in (
        sent_headers.get("x-api-key"),
        sent_headers.get("authorization", "").removeprefix("Bearer "),
    )
    assert llm.usage == {"prompt_tokens": 11, "completion_tokens": 7, "requests": 1}
    for shown in (repr(llm), pickle.dumps(llm).decode("latin-1")):
        assert SECRET not in shown
    assert json.dumps(llm.usage)

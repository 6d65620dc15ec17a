"""LLM adapters: any OpenAI-compatible chat endpoint over plain HTTP, and Anthropic's SDK.

Both implement :class:`~sectionrag.protocols.LLM` (``complete(prompt, *,
max_tokens) -> str``) and raise :class:`LLMError` when a call fails, with
``retryable`` telling the caller whether trying again may help (rate limits,
server errors, timeouts, dropped connections). They do not retry themselves:
:class:`~sectionrag.enrich.LLMEnricher` does, with backoff.

API keys come from an environment variable named by ``api_key_env``; they
are read when a request is made and never stored on the adapter, logged,
shown by ``repr`` or pickled.
"""

from __future__ import annotations

import json
import os
import socket
import threading
import urllib.error
import urllib.request
from collections.abc import Mapping
from typing import Any

from sectionrag.errors import ConfigError, EnrichmentError, MissingDependencyError

__all__ = ["AnthropicLLM", "LLMError", "LLMResponseError", "OpenAICompatibleLLM"]

_BODY_EXCERPT = 200


class LLMError(EnrichmentError):
    """An LLM call failed.

    Attributes:
        status: The HTTP status, when there was one.
        retryable: Whether the same call may succeed later (429, 5xx, timeouts, connection errors).
        retry_after: Seconds the server asked to wait before retrying, if it said.
    """

    def __init__(
        self,
        message: str,
        *,
        status: int | None = None,
        retryable: bool = False,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.retryable = retryable
        self.retry_after = retry_after


class LLMResponseError(LLMError):
    """The endpoint answered, but not with a response this adapter can read."""


def _retry_after(headers: Mapping[str, str] | Any) -> float | None:
    try:
        value = headers.get("retry-after") if headers is not None else None
        return max(0.0, float(value)) if value is not None else None
    except (TypeError, ValueError):
        return None  # an HTTP date: let the caller's backoff decide


def _status_error(status: int, reason: str, body: str, retry_after: float | None) -> LLMError:
    excerpt = " ".join(body.split())[:_BODY_EXCERPT]
    retryable = status in (408, 409, 429) or status >= 500
    hint = ""
    if status in (401, 403):
        hint = " (check the API key's environment variable)"
    elif status == 404:
        hint = " (check the base URL and the model name)"
    return LLMError(
        f"HTTP {status} {reason}{hint}: {excerpt}" if excerpt else f"HTTP {status} {reason}{hint}",
        status=status,
        retryable=retryable,
        retry_after=retry_after,
    )


class OpenAICompatibleLLM:
    """A chat-completions endpoint spoken over plain HTTP (stdlib ``urllib``).

    Works with OpenAI and with servers that copy its API: vLLM, Ollama,
    llama.cpp's server, LM Studio, LiteLLM. ``base_url`` is the API root
    that ``/chat/completions`` is appended to, such as
    ``http://localhost:11434/v1`` (Ollama) or ``https://api.openai.com/v1``.

    Args:
        base_url: The API root (``http://`` or ``https://``).
        model: The model name the server expects.
        api_key_env: Environment variable holding the API key; sent as a bearer
            token when set. Local servers usually need none.
        require_api_key: Raise at construction when the variable is unset.
        timeout: Seconds to wait for a response (connect and read).
        temperature: Sampling temperature (0 for repeatable output).
        json_mode: Send ``response_format={"type": "json_object"}`` (OpenAI, vLLM,
            Ollama and llama.cpp honour it; some servers reject it).
        system: An optional system message sent before the prompt.

    Attributes:
        usage: Token counts reported by the server, summed: ``prompt_tokens``,
            ``completion_tokens``, ``requests``.
    """

    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        api_key_env: str | None = "OPENAI_API_KEY",
        require_api_key: bool = False,
        timeout: float = 60.0,
        temperature: float = 0.0,
        json_mode: bool = False,
        system: str | None = None,
    ) -> None:
        if not isinstance(base_url, str) or not base_url.startswith(("http://", "https://")):
            raise ConfigError(f"base_url must start with http:// or https://, got {base_url!r}")
        if not isinstance(model, str) or not model:
            raise ConfigError(f"model must be a non-empty string, got {model!r}")
        if not timeout > 0:
            raise ConfigError(f"timeout must be > 0 seconds, got {timeout!r}")
        if require_api_key and not (api_key_env and os.environ.get(api_key_env)):
            raise ConfigError(
                f"no API key: set the environment variable {api_key_env or '(none named)'} "
                "(keys are read from the environment only)"
            )
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.api_key_env = api_key_env
        self.timeout = float(timeout)
        self.temperature = float(temperature)
        self.json_mode = json_mode
        self.system = system
        self.usage: dict[str, int] = {"prompt_tokens": 0, "completion_tokens": 0, "requests": 0}
        self._usage_lock = threading.Lock()

    def __repr__(self) -> str:
        return (
            f"OpenAICompatibleLLM({self.base_url!r}, model={self.model!r}, api_key_env={self.api_key_env!r})"
        )

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        del state["_usage_lock"]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._usage_lock = threading.Lock()

    @property
    def name(self) -> str:
        """``openai:MODEL@BASE_URL``: recorded in ``enriched_by`` and cache keys."""
        return f"openai:{self.model}@{self.base_url}"

    def _request(self, prompt: str, max_tokens: int) -> urllib.request.Request:
        messages = [{"role": "user", "content": prompt}]
        if self.system:
            messages.insert(0, {"role": "system", "content": self.system})
        payload: dict[str, Any] = {
            "model": self.model,
            "messages": messages,
            "max_tokens": max_tokens,
            "temperature": self.temperature,
        }
        if self.json_mode:
            payload["response_format"] = {"type": "json_object"}
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        key = os.environ.get(self.api_key_env) if self.api_key_env else None
        if key:
            headers["Authorization"] = f"Bearer {key}"
        return urllib.request.Request(
            f"{self.base_url}/chat/completions",
            data=json.dumps(payload).encode("utf-8"),
            headers=headers,
            method="POST",
        )

    def complete(self, prompt: str, *, max_tokens: int) -> str:
        """Send ``prompt`` as one user message; return the first choice's text.

        Raises:
            LLMError: HTTP error, timeout or connection failure (``retryable`` set accordingly).
            LLMResponseError: the body is not a chat-completions response.
        """
        if not isinstance(prompt, str):
            raise TypeError(f"prompt must be str, not {type(prompt).__name__}")
        request = self._request(prompt, max_tokens)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                raw = response.read()
        except urllib.error.HTTPError as e:
            with e:
                body = _read_quietly(e)
                raise _status_error(e.code, str(e.reason), body, _retry_after(e.headers)) from None
        except TimeoutError as e:
            raise LLMError(
                f"no response within {self.timeout:g} s from {self.base_url}", retryable=True
            ) from e
        except urllib.error.URLError as e:
            if isinstance(e.reason, (TimeoutError, socket.timeout)):
                raise LLMError(
                    f"no response within {self.timeout:g} s from {self.base_url}", retryable=True
                ) from e
            raise LLMError(f"cannot reach {self.base_url}: {e.reason}", retryable=True) from e
        except (ConnectionError, OSError) as e:
            raise LLMError(f"connection to {self.base_url} failed: {e}", retryable=True) from e
        return self._content(raw)

    def _content(self, raw: bytes) -> str:
        try:
            body = json.loads(raw)
            message = body["choices"][0]["message"]
            content = message.get("content")
        except (ValueError, KeyError, IndexError, TypeError, AttributeError) as e:
            excerpt = " ".join(raw.decode("utf-8", "replace").split())[:_BODY_EXCERPT]
            raise LLMResponseError(
                f"not a chat-completions response from {self.base_url}: {excerpt!r}", retryable=True
            ) from e
        if not isinstance(content, str):
            raise LLMResponseError(f"response from {self.base_url} has no text content", retryable=True)
        usage = body.get("usage") if isinstance(body, dict) else None
        with self._usage_lock:
            self.usage["requests"] += 1
            if isinstance(usage, dict):
                for k in ("prompt_tokens", "completion_tokens"):
                    if isinstance(usage.get(k), int):
                        self.usage[k] += usage[k]
        return content


def _read_quietly(response: Any) -> str:
    try:
        data: bytes = response.read()
    except Exception:  # a broken body must not hide the status
        return ""
    return data.decode("utf-8", "replace")


class AnthropicLLM:
    """Claude through the ``anthropic`` SDK (``pip install "sectionrag[anthropic]"``).

    The SDK client is made on the first call, with its own retries off
    (:class:`~sectionrag.enrich.LLMEnricher` retries).

    Args:
        model: The model name, e.g. ``claude-haiku-4-5``.
        api_key_env: Environment variable holding the API key.
        timeout: Seconds to wait for a response.
        temperature: Sampling temperature; ``None`` (the default) leaves it to the API.
        system: An optional system prompt.
        base_url: Another API root (a proxy or gateway); ``None`` for Anthropic's.

    Raises:
        MissingDependencyError: the ``anthropic`` package is not installed.
        ConfigError: the API key variable is not set.
    """

    def __init__(
        self,
        model: str = "claude-haiku-4-5",
        *,
        api_key_env: str = "ANTHROPIC_API_KEY",
        timeout: float = 60.0,
        temperature: float | None = None,
        system: str | None = None,
        base_url: str | None = None,
    ) -> None:
        _import_anthropic()
        if not os.environ.get(api_key_env):
            raise ConfigError(
                f"no Anthropic API key: set the environment variable {api_key_env} "
                "(keys are read from the environment only)"
            )
        if not timeout > 0:
            raise ConfigError(f"timeout must be > 0 seconds, got {timeout!r}")
        self.model = model
        self.api_key_env = api_key_env
        self.timeout = float(timeout)
        self.temperature = temperature
        self.system = system
        self.base_url = base_url
        self.usage: dict[str, int] = {"prompt_tokens": 0, "completion_tokens": 0, "requests": 0}
        self._client: Any = None
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"AnthropicLLM(model={self.model!r}, api_key_env={self.api_key_env!r})"

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["_client"] = None  # the client holds the key: never pickle it
        del state["_lock"]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._lock = threading.Lock()

    @property
    def name(self) -> str:
        """``anthropic:MODEL``: recorded in ``enriched_by`` and cache keys."""
        return f"anthropic:{self.model}"

    def _get_client(self) -> Any:
        with self._lock:
            if self._client is None:
                anthropic = _import_anthropic()
                key = os.environ.get(self.api_key_env)
                if not key:
                    raise LLMError(f"no Anthropic API key in the environment variable {self.api_key_env}")
                self._client = anthropic.Anthropic(
                    api_key=key, base_url=self.base_url, timeout=self.timeout, max_retries=0
                )
            return self._client

    def complete(self, prompt: str, *, max_tokens: int) -> str:
        """Send ``prompt`` as one user message; return the text of the reply.

        Raises:
            LLMError: the API refused or failed (``retryable`` set accordingly).
        """
        anthropic = _import_anthropic()
        client = self._get_client()
        kwargs: dict[str, Any] = {
            "model": self.model,
            "max_tokens": max_tokens,
            "messages": [{"role": "user", "content": prompt}],
        }
        if self.system:
            kwargs["system"] = self.system
        if self.temperature is not None:  # through extra_body: not every SDK version takes it as an argument
            kwargs["extra_body"] = {"temperature": self.temperature}
        try:
            message = client.messages.create(**kwargs)
        except anthropic.APIStatusError as e:
            response = getattr(e, "response", None)
            body = str(getattr(response, "text", "") or "")
            headers = getattr(response, "headers", None)
            raise _status_error(e.status_code, type(e).__name__, body, _retry_after(headers)) from None
        except anthropic.APITimeoutError as e:
            raise LLMError(f"no response from Anthropic within {self.timeout:g} s", retryable=True) from e
        except anthropic.APIConnectionError as e:
            raise LLMError(f"cannot reach the Anthropic API: {e}", retryable=True) from e
        except anthropic.APIResponseValidationError as e:
            raise LLMResponseError(f"unreadable response from the Anthropic API: {e}", retryable=True) from e
        text = "".join(getattr(block, "text", "") for block in getattr(message, "content", []) or [])
        usage = getattr(message, "usage", None)
        with self._lock:
            self.usage["requests"] += 1
            if usage is not None:
                self.usage["prompt_tokens"] += int(getattr(usage, "input_tokens", 0) or 0)
                self.usage["completion_tokens"] += int(getattr(usage, "output_tokens", 0) or 0)
        return text


def _import_anthropic() -> Any:
    try:
        import anthropic
    except ImportError as e:
        raise MissingDependencyError(
            'AnthropicLLM needs the anthropic package: pip install "sectionrag[anthropic]"'
        ) from e
    return anthropic

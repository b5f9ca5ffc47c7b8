"""Decorators used by the service layer."""

import functools
import logging
import time

log = logging.getLogger("bookshelf")


def timed(func):
    """Logs how long each call of `func` takes."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        start = time.perf_counter()
        try:
            return func(*args, **kwargs)
        finally:
            elapsed = time.perf_counter() - start
            log.debug("%s took %.3f ms", func.__qualname__, elapsed * 1000)

    return wrapper


def validate_key(func):
    """Rejects empty keys before `func` sees them."""

    @functools.wraps(func)
    def wrapper(self, key, *args, **kwargs):
        if not key or not key.strip():
            raise ValueError("an item key cannot be empty")
        return func(self, key.strip(), *args, **kwargs)

    return wrapper

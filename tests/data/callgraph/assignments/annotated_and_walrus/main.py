from typing import Callable, Optional


def on_start() -> str:
    return "start"


def finder() -> Optional[Callable[[], str]]:
    return on_start


def on_stop() -> str:
    return "stop"


handler: Callable[[], str] = on_stop
print(handler())
if (found := finder()) is not None:
    print(found())

from .core import Engine, start
from .plugins import load as load_plugins

__all__ = ["Engine", "start", "load_plugins"]

"""Small helpers shared by the package."""

from .text import slugify, normalize_title

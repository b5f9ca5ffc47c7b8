"""Text helpers: titles and keys."""

import re
import unicodedata

_NON_WORD = re.compile(r"[^a-z0-9]+")
ARTICLES = ("the", "a", "an")


def normalize_title(title):
    """Collapses whitespace and moves a leading article to the end ("Hobbit, The")."""
    words = title.split()
    if len(words) > 1 and words[0].lower() in ARTICLES:
        words = words[1:] + [words[0]]
        return " ".join(words[:-1]) + ", " + words[-1]
    return " ".join(words)


def strip_accents(text):
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def slugify(text):
    """A lowercase ASCII key for a title: "Le Petit Prince" -> "le-petit-prince"."""
    ascii_text = strip_accents(text).lower()
    return _NON_WORD.sub("-", ascii_text).strip("-")

from . import util
from .util import clean
from .sub.deep import measure


def run(text):
    return measure(clean(text)) + util.count(text)

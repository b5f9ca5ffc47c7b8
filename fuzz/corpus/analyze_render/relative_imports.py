from . import sibling
from .. import parent
from .sub.module import Thing as Alias
from os import path as p, sep
import json, os.path
from .b import *


class Local(Alias, sibling.Mixin):
    def run(self):
        return json.dumps(p.join(sep, parent.value()))

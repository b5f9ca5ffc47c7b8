import helpers
from helpers import rest as relax

print(helpers.work(), relax())

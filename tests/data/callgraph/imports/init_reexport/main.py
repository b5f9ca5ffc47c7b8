import engine
from engine import start

print(start("a"))
print(engine.Engine("b").run(), engine.load_plugins())

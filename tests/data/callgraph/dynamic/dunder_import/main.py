import importlib

name = "help" + "ers"
print(__import__(name).work(), importlib.import_module(name).work())
